import fc from 'fast-check';
import type { NormalizedFromSpecToEnv, NormalizedParameterConfiguration } from '@scoby/registration';
import { describe, expect, it } from 'vitest';
import { compactJson } from '@scoby/kube-objects';
import { referencedNames } from '../src/expansion-order.ts';
import { renderEnv } from '../src/render.ts';
import type { RenderLookups, RenderResult } from '../src/types.ts';
import { instance } from './fixtures.ts';
import { expandLikeKubernetes } from './kubernetes-expansion.ts';

// Few distinct keys, so that generated paths often meet the spec, each other and the generated names.
const KEYS = ['a', 'b', 'A', 'a-b', 'x.y', 'port'];
const SEGMENTS = KEYS.filter((key) => !key.includes('.'));

// Lower-case letters and punctuation only: no generated value can spell a planted MARKER. `$(A)`
// and `$` are what Kubernetes would expand in an env value (docs/spec/env.md §4, "Literal values").
const text = fc.string({
  unit: fc.constantFrom('a', 'b', 'z', ' ', ',', '"', '\\', '\n', 'é', '\u{1F600}', '$', '$(A)'),
  maxLength: 6,
});
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    text,
    fc.array(tie('value'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 5 }),
})).object as fc.Arbitrary<unknown>;

const segments = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 });
const writtenPath = fc
  .tuple(fc.constantFrom('', '.', '$.'), segments)
  .map(([lead, keys]) => `${lead}spec.${keys.join('.')}`);
const normalized = (path: string): string => path.replace(/^\$?\./, '');

const selectorRef = fc.record(
  { name: text, key: text, optional: fc.option(fc.boolean(), { nil: undefined }) },
  { requiredKeys: ['name', 'key'] },
);
const fromSpecToEnv = (name: fc.Arbitrary<string | undefined>): fc.Arbitrary<NormalizedFromSpecToEnv> =>
  fc.record(
    {
      path: writtenPath,
      name,
      default: fc.oneof(
        fc.record({ value: text }),
        fc.record({ configMap: selectorRef }),
        fc.record({ secret: selectorRef }),
      ),
      valueFrom: fc.oneof(
        fc.record({ configMapPath: fc.record({ name: writtenPath, key: writtenPath }) }),
        fc.record({ secretPath: fc.record({ name: writtenPath, key: writtenPath, optional: fc.boolean() }) }),
        fc.constant({ builtInFunc: { name: 'resolveAddress' } }),
      ),
    },
    { requiredKeys: ['path'] },
  );

const items = fc.array(fc.record({ key: writtenPath, path: text }), { maxLength: 2 });
const mountFrom = fc.oneof(
  fc.record({ configMapPath: fc.record({ name: writtenPath, items }) }),
  fc.record({ secretPath: fc.record({ secretName: writtenPath, items, defaultMode: fc.constant(256) }) }),
);

/** Valid configurations: unique toEnv and toVolume paths, unique A ∪ B names, unique volume names. */
const configuration: fc.Arbitrary<NormalizedParameterConfiguration> = fc
  .record({
    prefix: fc.constantFrom('', 'P_', 'x-'),
    skip: fc.array(
      writtenPath.map((path) => ({ path })),
      { maxLength: 3 },
    ),
    toEnv: fc.uniqueArray(
      fromSpecToEnv(fc.option(fc.constantFrom('A', 'A_B', 'NAMED', 'PORT'), { nil: undefined })),
      {
        maxLength: 4,
        selector: (entry) => normalized(entry.path),
      },
    ),
    toVolume: fc.uniqueArray(
      fc.record({ path: writtenPath, mountPath: text, mountFrom, name: fc.constantFrom('v1', 'v2', 'v3') }),
      { maxLength: 2, selector: (entry) => normalized(entry.path) },
    ),
    addEnv: fc.uniqueArray(
      fc.oneof(
        fc.record({ name: fc.constantFrom('B', 'PORT_X', 'ADDED'), value: text }),
        fc.record({
          name: fc.constantFrom('B', 'PORT_X', 'ADDED'),
          valueFromControllerConfigMap: selectorRef,
        }),
      ),
      { maxLength: 2, selector: (entry) => entry.name },
    ),
  })
  .map(({ prefix, skip, toEnv, toVolume, addEnv }) => {
    const volumeNames = new Set<string>(toVolume.map((entry) => entry.name));
    const explicitNames = new Set<string>();
    return {
      global: { defaultPrefix: prefix },
      fromSpec: {
        skip,
        // The explicit-name pool is disjoint from the add.toEnv pool; a repeated one gets its index.
        toEnv: toEnv.map((entry, i) => {
          if (entry.name === undefined) return entry;
          const name = explicitNames.has(entry.name) ? `${entry.name}_${i}` : entry.name;
          explicitNames.add(name);
          return { ...entry, name };
        }),
        toVolume,
      },
      add: {
        toEnv: addEnv,
        toVolume: [...['v4', 'v1'].filter((name) => !volumeNames.has(name))].map((name) => ({
          name,
          mountPath: `/${name}`,
          mountFrom: { configMapPath: { name: 'literal', items: [{ key: 'k', path: 'p' }] } },
        })),
      },
    };
  });

const fakeLookups: RenderLookups = {
  controllerNamespace: 'triggermesh',
  controllerConfigMap: (name) => (name.startsWith('a') ? { a: 'flag', '': 'empty' } : undefined),
  resolveAddress: async (destination) =>
    typeof destination.uri === 'string'
      ? { ok: true, url: `resolved:${destination.uri}` }
      : { ok: false, message: `cannot resolve ${compactJson(destination)}` },
};

const render = (spec: unknown, config: NormalizedParameterConfiguration): Promise<RenderResult> =>
  renderEnv({ instance: instance(spec), config }, fakeLookups);

const isInstructionAncestor = (ancestor: string, path: string): boolean => path.startsWith(`${ancestor}.`);

describe('properties', () => {
  it('never rejects, even for garbage instances, and always returns the full shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(json, fc.anything()), configuration, async (spec, config) => {
        const result = await render(spec, config);
        expect(Object.keys(result)).toEqual([
          'env',
          'volumes',
          'volumeMounts',
          'sourceMap',
          'warnings',
          'errors',
          'needsSpecChange',
        ]);
        if (result.errors.length === 0) expect(result.needsSpecChange).toBe(false);
        expect(result.errors.every((error) => !error.startsWith('internal error'))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('is deterministic', async () => {
    await fc.assert(
      fc.asyncProperty(json, configuration, async (spec, config) => {
        const first = await render(spec, config);
        const second = await render(structuredClone(spec), structuredClone(config));
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      }),
      { numRuns: 300 },
    );
  });

  it('yields unique names, in byte order unless a value refers to another variable, and well-formed entries', async () => {
    await fc.assert(
      fc.asyncProperty(json, configuration, async (spec, config) => {
        const { env, volumes, volumeMounts } = await render(spec, config);
        const utf8 = (name: string) => Buffer.from(name, 'utf8');
        const names = env.map((entry) => entry.name);
        const inByteOrder = [...names].sort((a, b) => Buffer.compare(utf8(a), utf8(b)));
        expect(new Set(names).size).toBe(names.length);
        const refersToAnother = env.some(
          (entry) =>
            entry.value !== undefined &&
            referencedNames(entry.value).some((name) => name !== entry.name && names.includes(name)),
        );
        if (refersToAnother) expect([...names].sort()).toEqual([...inByteOrder].sort());
        else expect(names).toEqual(inByteOrder);
        for (const entry of env) {
          if (entry.valueFrom === undefined) expect(typeof entry.value).toBe('string');
          else expect([entry.value, Object.keys(entry.valueFrom).length]).toEqual([undefined, 1]);
        }
        expect(volumes.map((volume) => volume.name)).toEqual(volumeMounts.map((mount) => mount.name));
      }),
      { numRuns: 300 },
    );
  });

  it('never renders anything from a skipped subtree', async () => {
    await fc.assert(
      fc.asyncProperty(json, configuration, async (generated, config) => {
        const skipped = config.fromSpec.skip.map((entry) => normalized(entry.path));
        const instructionPaths = [...config.fromSpec.toEnv, ...config.fromSpec.toVolume].map((entry) =>
          normalized(entry.path),
        );
        const references = [
          ...config.fromSpec.toEnv.flatMap((entry) => {
            const source = entry.valueFrom?.configMapPath ?? entry.valueFrom?.secretPath;
            return source === undefined ? [] : [source.name, source.key];
          }),
          ...config.fromSpec.toVolume.flatMap(({ mountFrom }) => [
            ...[mountFrom.configMapPath?.name, mountFrom.secretPath?.secretName].filter(
              (name) => name !== undefined,
            ),
            ...(mountFrom.configMapPath?.items ?? mountFrom.secretPath?.items ?? []).map((item) => item.key),
          ]),
        ].map(normalized);
        // A skip below another instruction is suppressed, and references may point anywhere: leave those out.
        fc.pre(skipped.every((skip) => !instructionPaths.some((path) => isInstructionAncestor(path, skip))));
        fc.pre(
          skipped.every(
            (skip) => !references.some((ref) => ref === skip || isInstructionAncestor(skip, ref)),
          ),
        );

        const spec = typeof generated === 'object' && generated !== null ? structuredClone(generated) : {};
        skipped.forEach((path, i) =>
          plant(spec as Record<string, unknown>, path.split('.').slice(1), {
            MARKERKEY: `MARKER-${i}`,
            list: ['MARKER', { MARKER: 1 }],
          }),
        );
        const result = await render(spec, config);
        expect(JSON.stringify(result)).not.toContain('MARKER');
      }),
      { numRuns: 400 },
    );
  });

  it('passes every value taken from the spec literally: Kubernetes expands none of them', async () => {
    await fc.assert(
      fc.asyncProperty(json, configuration, async (spec, config) => {
        const { env } = await render(spec, withoutWrittenValues(config));
        for (const { value } of env) {
          if (value === undefined) continue;
          const everyNameDefined = expandLikeKubernetes(value, () => 'SECRET');
          expect(everyNameDefined).toBe(expandLikeKubernetes(value, () => undefined));
          expect(everyNameDefined).not.toContain('SECRET');
        }
      }),
      { numRuns: 400 },
    );
  });
});

/** The configuration without the values a registration author writes, which keep expansion. */
function withoutWrittenValues(config: NormalizedParameterConfiguration): NormalizedParameterConfiguration {
  return {
    ...config,
    fromSpec: {
      ...config.fromSpec,
      toEnv: config.fromSpec.toEnv.map((entry) =>
        entry.default?.value === undefined
          ? entry
          : { ...entry, default: { configMap: { name: 'd', key: 'k' } } },
      ),
    },
    add: { ...config.add, toEnv: config.add.toEnv.filter((entry) => entry.value === undefined) },
  };
}

/** Sets `value` at `keys`, replacing anything that is not an object on the way. */
function plant(node: Record<string, unknown>, keys: string[], value: unknown): void {
  const [key, ...rest] = keys as [string, ...string[]];
  if (rest.length === 0) {
    node[key] = value;
    return;
  }
  const child = node[key];
  const next = typeof child === 'object' && child !== null && !Array.isArray(child) ? child : {};
  node[key] = next;
  plant(next as Record<string, unknown>, rest, value);
}
