import { describe, expect, it } from 'vitest';
import { config, instance, literals, lookups, render } from './fixtures.ts';
import { renderEnv } from '../src/render.ts';

describe('render errors (docs/spec/env.md §9)', () => {
  it('collects add.toEnv errors in list order, then instruction errors in byte order of their paths', async () => {
    const result = await render(
      { b: { uri: 'x' }, aa: { name: 'n' }, a: { present: true } },
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.b', valueFrom: { builtInFunc: { name: 'resolveAddress' } } },
            { path: 'spec.aa', valueFrom: { configMapPath: { name: 'spec.aa.name', key: 'spec.aa.key' } } },
          ],
          toVolume: [
            {
              path: 'spec.a',
              name: 'a',
              mountPath: '/a',
              mountFrom: { configMapPath: { name: 'spec.a.cm' } },
            },
          ],
        },
        add: {
          toEnv: [
            { name: 'Z', valueFromControllerConfigMap: { name: 'z', key: 'k' } },
            { name: 'A', valueFromControllerConfigMap: { name: 'a', key: 'k' } },
          ],
        },
      },
    );
    expect(result.errors).toEqual([
      'add.toEnv "Z": ConfigMap "triggermesh/z" not found',
      'add.toEnv "A": ConfigMap "triggermesh/a" not found',
      'spec.a: mountFrom.configMapPath.name: no value at "spec.a.cm"',
      'spec.aa: valueFrom.configMapPath.key: no value at "spec.aa.key"',
      'spec.b: resolveAddress: no address for {"uri":"x"}',
    ]);
  });

  it.each([
    ['number', 42],
    ['boolean', true],
    ['array', [{ a: 1 }]],
  ])(
    'rejects a spec that is a %s, after add.toEnv errors, rendering the rest as for an empty spec',
    async (type, spec) => {
      const result = await render(spec, {
        fromSpec: { toEnv: [{ path: 'spec.port', default: { value: '80' } }] },
        add: { toEnv: [{ name: 'F', valueFromControllerConfigMap: { name: 'flags', key: 'f' } }] },
      });
      expect(result.errors).toEqual([
        'add.toEnv "F": ConfigMap "triggermesh/flags" not found',
        `spec: expected an object, got ${type}`,
      ]);
      expect(literals(result)).toEqual(['PORT=80']);
    },
  );

  it('treats spec: null like a missing spec', async () => {
    const result = await render(null, {
      fromSpec: { toEnv: [{ path: 'spec.port', default: { value: '80' } }] },
    });
    expect(result).toMatchObject({ env: [{ name: 'PORT', value: '80' }], errors: [] });
  });
});

describe('which render errors only a spec or registration change can fix (docs/spec/env.md §9)', () => {
  const specReference = {
    fromSpec: {
      toEnv: [{ path: 'spec.db', valueFrom: { secretPath: { name: 'spec.db.secret', key: 'spec.db.key' } } }],
    },
  };
  const address = {
    fromSpec: {
      toEnv: [{ path: 'spec.sink', valueFrom: { builtInFunc: { name: 'resolveAddress' as const } } }],
    },
  };
  const controllerConfigMap = {
    add: { toEnv: [{ name: 'F', valueFromControllerConfigMap: { name: 'flags', key: 'f' } }] },
  };

  it.each([
    ['a spec that is not an object', 'text', {}],
    ['a reference to an absent spec value', { db: { key: 'k' } }, specReference],
    ['a reference value that is not a string', { db: { secret: 42, key: 'k' } }, specReference],
    ['resolveAddress on a non-object', { sink: 'http://x' }, address],
  ])('needs a spec change for %s', async (_case, spec, parts) => {
    const result = await render(spec, parts);
    expect(result.errors).toHaveLength(1);
    expect(result.needsSpecChange).toBe(true);
  });

  it.each([
    ['an address that does not resolve', { sink: { uri: 'x' } }, address],
    ['a missing controller ConfigMap', {}, controllerConfigMap],
    ['a spec error beside a missing controller ConfigMap', 'text', controllerConfigMap],
  ])('may clear without one for %s', async (_case, spec, parts) => {
    const result = await render(spec, parts);
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.needsSpecChange).toBe(false);
  });

  it('is false when rendering succeeds', async () => {
    expect((await render({ a: 1 })).needsSpecChange).toBe(false);
  });
});

describe('failure containment', () => {
  it('turns an unexpected exception into a render error instead of rejecting', async () => {
    const result = await renderEnv(
      {
        instance: instance({}),
        config: config({
          add: { toEnv: [{ name: 'F', valueFromControllerConfigMap: { name: 'f', key: 'k' } }] },
        }),
      },
      {
        ...lookups(),
        controllerConfigMap: () => {
          throw new Error('cache not synced');
        },
      },
    );
    expect(result).toEqual({
      env: [],
      volumes: [],
      volumeMounts: [],
      sourceMap: {},
      warnings: [],
      errors: ['internal error while rendering: cache not synced'],
      needsSpecChange: false,
    });
  });

  it('treats a resolver that throws synchronously as a failed resolution', async () => {
    const result = await renderEnv(
      {
        instance: instance({ sink: { uri: '/x' } }),
        config: config({
          fromSpec: {
            toEnv: [{ path: 'spec.sink', valueFrom: { builtInFunc: { name: 'resolveAddress' } } }],
          },
        }),
      },
      {
        ...lookups(),
        resolveAddress: () => {
          throw 'no discovery';
        },
      },
    );
    expect(result.errors).toEqual(['spec.sink: resolveAddress: no discovery']);
  });

  it('reuses the compiled configuration without carrying state between instances', async () => {
    const shared = config({
      fromSpec: {
        toEnv: [{ path: 'spec.a', name: 'A_VAR', default: { value: 'default' } }],
        skip: [{ path: 'spec.s' }],
      },
    });
    const first = await renderEnv(
      { instance: instance({ a: 'one', s: 'x', b: 1 }), config: shared },
      lookups(),
    );
    const second = await renderEnv({ instance: instance({ c: 2 }), config: shared }, lookups());
    expect(literals(first)).toEqual(['A_VAR=one', 'B=1']);
    expect(literals(second)).toEqual(['A_VAR=default', 'C=2']);
  });
});
