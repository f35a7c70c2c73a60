import fc from 'fast-check';
import type { EnvVar } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { orderForExpansion, referencedNames } from '../src/expansion-order.ts';
import { render } from './fixtures.ts';
import { expandLikeKubernetes } from './kubernetes-expansion.ts';

/** What the process sees: the kubelet walks the list, each value expanded with the variables before it. */
function kubeletEnvironment(
  env: readonly EnvVar[],
  fieldValues: Record<string, string>,
): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const entry of env) {
    seen[entry.name] =
      entry.value === undefined
        ? (fieldValues[entry.name] ?? '')
        : expandLikeKubernetes(entry.value, (name) => (Object.hasOwn(seen, name) ? seen[name] : undefined));
  }
  return seen;
}

describe('references among values written in the registration (docs/spec/env.md §8)', () => {
  it('finds $(NAME) references and skips $$-escaped ones', () => {
    expect(referencedNames('mailer.$(POD_NAMESPACE)')).toEqual(['POD_NAMESPACE']);
    expect(referencedNames('$(A)-$(B) $$(C) $$$(D) $ ( $(E')).toEqual(['A', 'B', 'D']);
    expect(referencedNames('plain')).toEqual([]);
  });

  it('places a variable after the one its value refers to, so the kubelet expands it', async () => {
    const result = await render(
      { logLevel: 'info' },
      {
        add: {
          toEnv: [
            { name: 'AUTHOR_DEFAULT', value: 'mailer.$(POD_NAMESPACE)' },
            { name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } },
          ],
        },
      },
    );
    expect(result.env.map((entry) => entry.name)).toEqual(['LOGLEVEL', 'POD_NAMESPACE', 'AUTHOR_DEFAULT']);
    expect(kubeletEnvironment(result.env, { POD_NAMESPACE: 'shop' })).toEqual({
      LOGLEVEL: 'info',
      POD_NAMESPACE: 'shop',
      AUTHOR_DEFAULT: 'mailer.shop',
    });
  });

  it('keeps byte order when nothing refers to another variable of the list', async () => {
    const result = await render(
      { zeta: '$(ALPHA)', alpha: 'a' },
      {
        fromSpec: {
          toEnv: [{ path: 'spec.missing', name: 'M', default: { value: '$(UNKNOWN) $$(ALPHA)' } }],
        },
        add: { toEnv: [{ name: 'SELF', value: '$(SELF)' }] },
      },
    );
    // Spec-derived values are escaped; UNKNOWN is not in the list; a self-reference does not count.
    expect(result.env).toEqual([
      { name: 'ALPHA', value: 'a' },
      { name: 'M', value: '$(UNKNOWN) $$(ALPHA)' },
      { name: 'SELF', value: '$(SELF)' },
      { name: 'ZETA', value: '$$(ALPHA)' },
    ]);
  });

  it('returns the very list it was given when nothing refers to anything', () => {
    const sorted = [
      { name: 'A', value: '$$(B)' },
      { name: 'B', value: 'x' },
    ];
    expect(orderForExpansion(sorted)).toBe(sorted);
  });

  it('puts the first in byte order first in a cycle, as Kubernetes cannot expand them all', () => {
    expect(
      orderForExpansion([
        { name: 'A', value: '$(C)' },
        { name: 'B', value: 'b' },
        { name: 'C', value: '$(A)' },
        { name: 'D', value: '$(C)' },
      ]).map((entry) => entry.name),
    ).toEqual(['B', 'A', 'C', 'D']);
  });

  it('expands every reference of an acyclic graph and moves only the referring variables', () => {
    const NAMES = ['A', 'B', 'C', 'D', 'E', 'F'];
    // Each variable may refer only to variables after it in this shuffled order: never a cycle.
    const graphs = fc.tuple(
      fc.shuffledSubarray(NAMES, { minLength: NAMES.length, maxLength: NAMES.length }),
      fc.array(fc.array(fc.nat(NAMES.length - 1), { maxLength: 3 }), {
        minLength: NAMES.length,
        maxLength: NAMES.length,
      }),
    );
    fc.assert(
      fc.property(graphs, ([rank, picks]) => {
        const sorted = NAMES.map((name) => {
          const position = rank.indexOf(name);
          const refs = (picks[position] ?? [])
            .map((pick) => rank[pick] as string)
            .filter((ref) => rank.indexOf(ref) > position);
          return { name, value: `${name.toLowerCase()}${refs.map((ref) => `/$(${ref})`).join('')}` };
        });
        const ordered = orderForExpansion(sorted);
        const seen = kubeletEnvironment(ordered, {});
        for (const { name, value } of sorted) {
          expect(seen[name]).not.toContain('$(');
          expect(seen[name]?.startsWith(value.slice(0, 1))).toBe(true);
        }
        const referring = new Set(
          sorted.filter((entry) => entry.value.includes('$(')).map((entry) => entry.name),
        );
        const others = (list: readonly EnvVar[]) =>
          list.map((entry) => entry.name).filter((name) => !referring.has(name));
        expect(others(ordered)).toEqual(others(sorted));
      }),
      { numRuns: 300 },
    );
  });
});
