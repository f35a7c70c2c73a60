import { describe, expect, it } from 'vitest';
import { collision, config, instance, literals, lookups, render } from './fixtures.ts';
import { renderEnv } from '../src/render.ts';

const tlsVolume = {
  path: 'spec.tls',
  name: 'tls',
  mountPath: '/etc/tls',
  mountFrom: { secretPath: { secretName: 'spec.tls.secret' } },
};

describe('precedence and suppression (docs/spec/env.md §5)', () => {
  it('applies skip over toVolume over toEnv on one path', async () => {
    const spec = { tls: { secret: 'web-tls' }, other: 'x' };
    const skipped = await render(spec, {
      fromSpec: {
        skip: [{ path: 'spec.tls' }],
        toVolume: [tlsVolume],
        toEnv: [{ path: 'spec.tls', name: 'TLS' }],
      },
    });
    expect(literals(skipped)).toEqual(['OTHER=x']);
    expect(skipped.volumes).toEqual([]);

    const mounted = await render(spec, {
      fromSpec: { toVolume: [tlsVolume], toEnv: [{ path: 'spec.tls', name: 'TLS' }] },
    });
    expect(literals(mounted)).toEqual(['OTHER=x']);
    expect(mounted.volumes).toEqual([{ name: 'tls', secret: { secretName: 'web-tls' } }]);
    expect(mounted.volumeMounts).toEqual([{ name: 'tls', mountPath: '/etc/tls' }]);
  });

  it('ignores instructions below an instruction, defaults included', async () => {
    const result = await render(
      { auth: { user: 'bob' } },
      {
        fromSpec: {
          skip: [{ path: 'spec.auth' }],
          toEnv: [
            { path: 'spec.auth.user', name: 'USER' },
            { path: 'spec.auth.missing', name: 'MISSING', default: { value: 'd' } },
          ],
          toVolume: [{ ...tlsVolume, path: 'spec.auth.tls' }],
        },
      },
    );
    expect(result).toMatchObject({ env: [], volumes: [], volumeMounts: [], errors: [] });
  });

  it('lets a toEnv entry on an object cover its children, skips below included', async () => {
    const result = await render(
      { db: { host: 'h', secret: 's' } },
      { fromSpec: { toEnv: [{ path: 'spec.db' }], skip: [{ path: 'spec.db.secret' }] } },
    );
    expect(literals(result)).toEqual(['DB={"host":"h","secret":"s"}']);
  });

  it('suppresses by whole segments only', async () => {
    const result = await render(
      { auth: { user: 'bob' }, authority: { host: 'ca' } },
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.auth', name: 'AUTH_JSON' },
            { path: 'spec.authority.host', name: 'CA' },
          ],
        },
      },
    );
    expect(literals(result)).toEqual(['AUTH_JSON={"user":"bob"}', 'CA=ca']);
  });

  it('does not depend on the order of the configuration lists', async () => {
    const spec = { a: { b: 1, c: 2 }, d: 3 };
    const entries = [{ path: 'spec.a.b', name: 'B' }, { path: 'spec.a' }, { path: 'spec.d', name: 'D' }];
    const forward = await render(spec, { fromSpec: { toEnv: entries } });
    const backward = await render(spec, { fromSpec: { toEnv: [...entries].reverse() } });
    expect(literals(forward)).toEqual(['A={"b":1,"c":2}', 'D=3']);
    expect(backward).toEqual(forward);
  });

  it('renders nothing for null value nodes and empty objects, and renders a value node above an instruction', async () => {
    const result = await render(
      { empty: {}, nothing: null, deep: { empty: {} }, plain: 'p' },
      { fromSpec: { toEnv: [{ path: 'spec.plain.inner', name: 'INNER', default: { value: 'i' } }] } },
    );
    expect(literals(result)).toEqual(['INNER=i', 'PLAIN=p']);
  });
});

describe('fromSpec.toEnv (docs/spec/env.md §6.3)', () => {
  it('copies default selectors as written, optional only when written', async () => {
    const result = await render(
      {},
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.a', default: { configMap: { name: 'cm', key: 'k', optional: true } } },
            { path: 'spec.b', default: { configMap: { name: 'cm', key: 'k' } } },
            { path: 'spec.c', default: { secret: { name: 's', key: 'k', optional: false } } },
          ],
        },
      },
    );
    expect(result.env).toEqual([
      { name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k', optional: true } } },
      { name: 'B', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } },
      { name: 'C', valueFrom: { secretKeyRef: { name: 's', key: 'k', optional: false } } },
    ]);
    expect(result.sourceMap).toEqual({});
  });

  it('renders nothing for an absent path without default, valueFrom or not', async () => {
    const result = await render(
      {},
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.a' },
            { path: 'spec.b', valueFrom: { secretPath: { name: 'spec.x', key: 'spec.y' } } },
            { path: 'spec.c', valueFrom: { builtInFunc: { name: 'resolveAddress' } } },
          ],
        },
      },
    );
    expect(result).toMatchObject({ env: [], errors: [] });
  });

  it('reads references anywhere in the spec, in the instance namespace', async () => {
    const result = await render(
      { db: { enabled: true }, names: { secret: 'db-secret' }, keys: { password: 'pw' } },
      {
        fromSpec: {
          toEnv: [
            {
              path: 'spec.db',
              name: 'DB_PASSWORD',
              valueFrom: {
                secretPath: { name: '.spec.names.secret', key: '$.spec.keys.password', optional: false },
              },
            },
          ],
        },
      },
    );
    expect(result.env).toEqual([
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-secret', key: 'pw', optional: false } } },
      { name: 'KEYS_PASSWORD', value: 'pw' },
      { name: 'NAMES_SECRET', value: 'db-secret' },
    ]);
  });

  it('reports every reference problem of an entry, name before key', async () => {
    const result = await render(
      { settings: { cmName: '', key: ['k'] }, creds: { name: { x: 1 } } },
      {
        fromSpec: {
          toEnv: [
            {
              path: 'spec.settings',
              valueFrom: { configMapPath: { name: 'spec.settings.cmName', key: 'spec.settings.key' } },
            },
            {
              path: 'spec.creds',
              valueFrom: { secretPath: { name: 'spec.creds.name', key: 'spec.creds.key' } },
            },
          ],
        },
      },
    );
    expect(result.errors).toEqual([
      'spec.creds: valueFrom.secretPath.name: value at "spec.creds.name" is not a string',
      'spec.creds: valueFrom.secretPath.key: no value at "spec.creds.key"',
      'spec.settings: valueFrom.configMapPath.name: value at "spec.settings.cmName" is empty',
      'spec.settings: valueFrom.configMapPath.key: value at "spec.settings.key" is not a string',
    ]);
    expect(result.env).toEqual([]);
  });

  it('treats a null reference value as absent', async () => {
    const result = await render(
      { creds: { name: null, key: 'k' } },
      {
        fromSpec: {
          toEnv: [
            {
              path: 'spec.creds',
              valueFrom: { secretPath: { name: 'spec.creds.name', key: 'spec.creds.key' } },
            },
          ],
        },
      },
    );
    expect(result.errors).toEqual(['spec.creds: valueFrom.secretPath.name: no value at "spec.creds.name"']);
  });
});

describe('resolveAddress (docs/spec/env.md §6.4)', () => {
  const resolve = { builtInFunc: { name: 'resolveAddress', args: ['ignored'] } };
  const sinkConfig = config({
    fromSpec: { toEnv: [{ path: 'spec.sink', name: 'K_SINK', valueFrom: resolve }] },
  });

  it.each([
    ['string', 'http://x'],
    ['array', [{ uri: 'http://x' }]],
    ['number', 5],
    ['boolean', false],
  ])('rejects a %s without calling the resolver', async (type, sink) => {
    const world = lookups();
    const result = await renderEnv({ instance: instance({ sink }), config: sinkConfig }, world);
    expect(result.errors).toEqual([
      `spec.sink: resolveAddress: expected an object with ref and/or uri, got ${type}`,
    ]);
    expect(world.calls).toEqual([]);
  });

  it('reports the resolver message, and a rejection like a failure', async () => {
    const failing = await render(
      { sink: { ref: { apiVersion: 'v1', kind: 'Service', name: 'collector', namespace: 'shop' } } },
      { fromSpec: { toEnv: [{ path: 'spec.sink', valueFrom: resolve }] } },
      {
        addresses: {
          '{"ref":{"apiVersion":"v1","kind":"Service","name":"collector","namespace":"shop"}}': {
            ok: false,
            message: 'services "collector" not found',
          },
        },
      },
    );
    expect(failing.errors).toEqual(['spec.sink: resolveAddress: services "collector" not found']);
    expect(failing.env).toEqual([]);
    expect(failing.sourceMap).toEqual({});

    const rejecting = await renderEnv(
      { instance: instance({ sink: { uri: '/x' } }), config: sinkConfig },
      { ...lookups(), resolveAddress: () => Promise.reject(new Error('connection refused')) },
    );
    expect(rejecting.errors).toEqual(['spec.sink: resolveAddress: connection refused']);
  });

  it('passes other keys through, keeps a written namespace and fills a missing or null one', async () => {
    const world = lookups();
    await renderEnv(
      {
        instance: instance(
          {
            a: { ref: { kind: 'Broker', namespace: 'infra' }, extra: 1 },
            b: { ref: { kind: 'Broker', namespace: null } },
            c: { ref: 'not-an-object' },
            d: {},
          },
          'shop',
        ),
        config: config({
          fromSpec: {
            toEnv: ['a', 'b', 'c', 'd'].map((key) => ({ path: `spec.${key}`, valueFrom: resolve })),
          },
        }),
      },
      world,
    );
    expect([...world.calls].sort()).toEqual([
      ['{"extra":1,"ref":{"kind":"Broker","namespace":"infra"}}', 'shop'],
      ['{"ref":"not-an-object"}', 'shop'],
      ['{"ref":{"kind":"Broker","namespace":"shop"}}', 'shop'],
      ['{}', 'shop'],
    ]);
  });
});

describe('add.toEnv (docs/spec/env.md §6.6)', () => {
  const flags = { configMaps: { 'scoby-flags': { flags: 'beta', empty: '' } } };

  it('renders every form, unprefixed, also without spec', async () => {
    const result = await render(
      undefined,
      {
        global: { defaultPrefix: 'X_' },
        add: {
          toEnv: [
            { name: 'EMPTY', value: '' },
            { name: 'NODE', valueFrom: { field: { fieldPath: 'spec.nodeName', apiVersion: 'v1' } } },
            { name: 'CM', valueFrom: { configMap: { name: 'cm', key: 'k', optional: false } } },
            { name: 'SECRET', valueFrom: { secret: { name: 's', key: 'k' } } },
            { name: 'FLAGS', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'flags' } },
            { name: 'EMPTY_FLAG', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'empty' } },
          ],
        },
      },
      flags,
    );
    expect(result).toEqual({
      env: [
        { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k', optional: false } } },
        { name: 'EMPTY', value: '' },
        { name: 'EMPTY_FLAG', value: '' },
        { name: 'FLAGS', value: 'beta' },
        { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName', apiVersion: 'v1' } } },
        { name: 'SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: {},
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('reports a missing controller ConfigMap or key, unless optional', async () => {
    const result = await render(
      {},
      {
        add: {
          toEnv: [
            { name: 'FEATURE_FLAGS', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'flags' } },
            { name: 'OTHER', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'nope' } },
            { name: 'GONE', valueFromControllerConfigMap: { name: 'absent', key: 'k' } },
            {
              name: 'MAYBE_KEY',
              valueFromControllerConfigMap: { name: 'scoby-flags', key: 'nope', optional: true },
            },
            { name: 'MAYBE_CM', valueFromControllerConfigMap: { name: 'absent', key: 'k', optional: true } },
            { name: 'PROTO', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'toString' } },
          ],
        },
      },
      flags,
    );
    expect(result.errors).toEqual([
      'add.toEnv "OTHER": ConfigMap "triggermesh/scoby-flags" has no key "nope"',
      'add.toEnv "GONE": ConfigMap "triggermesh/absent" not found',
      'add.toEnv "PROTO": ConfigMap "triggermesh/scoby-flags" has no key "toString"',
    ]);
    expect(result.env).toEqual([{ name: 'FEATURE_FLAGS', value: 'beta' }]);
  });
});

describe('volumes (docs/spec/env.md §6.5, §6.7)', () => {
  it('renders nothing for an absent path', async () => {
    const result = await render({ tls: null }, { fromSpec: { toVolume: [tlsVolume] } });
    expect(result).toMatchObject({ env: [], volumes: [], volumeMounts: [], errors: [] });
  });

  it('copies items with mode, defaultMode and optional; omits empty items', async () => {
    const result = await render(
      { cfg: { name: 'settings', first: 'a.conf', second: 'b.conf' }, sec: { name: 'creds' } },
      {
        fromSpec: {
          toVolume: [
            {
              path: 'spec.cfg',
              name: 'cfg',
              mountPath: '/cfg',
              mountFrom: {
                configMapPath: {
                  name: 'spec.cfg.name',
                  items: [
                    { key: 'spec.cfg.second', path: 'b', mode: 0o400 },
                    { key: 'spec.cfg.first', path: 'a' },
                  ],
                  defaultMode: 0o644,
                  optional: false,
                },
              },
            },
            {
              path: 'spec.sec',
              name: 'sec',
              mountPath: '/sec',
              mountFrom: { secretPath: { secretName: 'spec.sec.name', items: [], optional: true } },
            },
          ],
        },
        add: {
          toVolume: [
            {
              name: 'added',
              mountPath: '/added',
              mountFrom: {
                secretPath: {
                  secretName: 'literal-secret',
                  items: [{ key: 'spec.not.a.path', path: 'p', mode: 256 }],
                },
              },
            },
          ],
        },
      },
    );
    expect(result).toEqual({
      env: [],
      volumes: [
        {
          name: 'added',
          secret: { secretName: 'literal-secret', items: [{ key: 'spec.not.a.path', path: 'p', mode: 256 }] },
        },
        {
          name: 'cfg',
          configMap: {
            name: 'settings',
            items: [
              { key: 'b.conf', path: 'b', mode: 0o400 },
              { key: 'a.conf', path: 'a' },
            ],
            defaultMode: 0o644,
            optional: false,
          },
        },
        { name: 'sec', secret: { secretName: 'creds', optional: true } },
      ],
      volumeMounts: [
        { name: 'added', mountPath: '/added' },
        { name: 'cfg', mountPath: '/cfg' },
        { name: 'sec', mountPath: '/sec' },
      ],
      sourceMap: {},
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('reports every reference problem of a volume', async () => {
    const result = await render(
      { tls: { certKey: 7, keyKey: '' }, cfg: { x: 1 } },
      {
        fromSpec: {
          toVolume: [
            {
              path: 'spec.tls',
              name: 'tls',
              mountPath: '/tls',
              mountFrom: {
                secretPath: {
                  secretName: 'spec.tls.secret',
                  items: [
                    { key: 'spec.tls.certKey', path: 'c' },
                    { key: 'spec.tls.keyKey', path: 'k' },
                  ],
                },
              },
            },
            {
              path: 'spec.cfg',
              name: 'cfg',
              mountPath: '/cfg',
              mountFrom: { configMapPath: { name: 'spec.cfg.name' } },
            },
          ],
        },
      },
    );
    expect(result.errors).toEqual([
      'spec.cfg: mountFrom.configMapPath.name: no value at "spec.cfg.name"',
      'spec.tls: mountFrom.secretPath.secretName: no value at "spec.tls.secret"',
      'spec.tls: mountFrom.secretPath.items[0].key: value at "spec.tls.certKey" is not a string',
      'spec.tls: mountFrom.secretPath.items[1].key: value at "spec.tls.keyKey" is empty',
    ]);
    expect(result).toMatchObject({ volumes: [], volumeMounts: [] });
  });
});

describe('name collisions (docs/spec/env.md §7)', () => {
  it('lets add.toEnv beat explicit names and generated names, an explicit name beat generated ones', async () => {
    const result = await render(
      { region: 'spec-region', zone: 'spec-zone', area: 'a', 'zo.ne': 'dotted' },
      {
        global: { defaultPrefix: '' },
        fromSpec: { toEnv: [{ path: 'spec.area', name: 'ZONE' }] },
        add: { toEnv: [{ name: 'REGION', value: 'added' }] },
      },
    );
    expect(literals(result)).toEqual(['REGION=added', 'ZONE=a', 'ZO_NE=dotted']);
    expect(result.warnings).toEqual([
      collision('environment variable "REGION" from "spec.region" is not set: the name is set by add.toEnv'),
      collision('environment variable "ZONE" from "spec.zone" is not set: the name is set by "spec.area"'),
    ]);
  });

  it('lets the smallest source path win among generated names, unnamed toEnv entries included', async () => {
    const result = await render(
      { a: { b: 'nested' }, A: { B: 'upper' }, 'a.b': 'dotted', A_b: 'underscore' },
      { fromSpec: { toEnv: [{ path: 'spec.a.b' }] } },
    );
    expect(literals(result)).toEqual(['A_B=upper']);
    expect(result.warnings).toEqual([
      collision('environment variable "A_B" from "spec.A_b" is not set: the name is set by "spec.A.B"'),
      collision('environment variable "A_B" from "spec.a.b" is not set: the name is set by "spec.A.B"'),
      collision('environment variable "A_B" from "spec.a.b" is not set: the name is set by "spec.A.B"'),
    ]);
    // Collision losers keep their source map entries; the dotted key cannot be named by a path.
    expect(result.sourceMap).toEqual({ 'spec.A.B': 'upper', 'spec.A_b': 'underscore', 'spec.a.b': 'nested' });
  });

  it('settles equal paths from a dotted key and nested keys the same way whatever the key order', async () => {
    const one = await render({ 'a.b': 'dotted', a: { b: 'nested' } });
    const other = await render({ a: { b: 'nested' }, 'a.b': 'dotted' });
    expect(literals(one)).toEqual(['A_B=dotted']);
    expect(other).toEqual(one);
  });
});

describe('output order and source map (docs/spec/env.md §8, intro)', () => {
  it('sorts names in byte order, not locale or UTF-16 order', async () => {
    const result = await render({ '\u{1F600}': 1, '\uFFFD': 2, ä: 3, _: 4, z: 5, b: 6, '1': 7 });
    expect(result.env.map((env) => env.name)).toEqual(['1', 'B', 'Z', '_', 'Ä', '\uFFFD', '\u{1F600}']);
  });

  it('sorts volumes and mounts by volume name in byte order', async () => {
    const volume = (name: string) => ({
      name,
      mountPath: `/${name}`,
      mountFrom: { configMapPath: { name: 'cm' } },
    });
    const result = await render(
      {},
      { add: { toVolume: ['b', '\u{1F600}', 'B', '\uFFFD', '_'].map(volume) } },
    );
    expect(result.volumes.map((v) => v.name)).toEqual(['B', '_', 'b', '\uFFFD', '\u{1F600}']);
    expect(result.volumeMounts.map((v) => v.name)).toEqual(['B', '_', 'b', '\uFFFD', '\u{1F600}']);
  });

  it('keys the source map by normalised path in byte order, leaving out references and add.toEnv', async () => {
    const result = await render(
      { z: 'last', b: { c: 1 }, B: 'upper', ref: { name: 'cm', key: 'k' } },
      {
        fromSpec: {
          toEnv: [
            {
              path: '$.spec.ref',
              valueFrom: { configMapPath: { name: 'spec.ref.name', key: 'spec.ref.key' } },
            },
            { path: '.spec.missing', default: { value: 'dflt' } },
          ],
        },
        add: { toEnv: [{ name: 'ADDED', value: 'x' }] },
      },
    );
    expect(Object.entries(result.sourceMap)).toEqual([
      ['spec.B', 'upper'],
      ['spec.b.c', '1'],
      ['spec.missing', 'dflt'],
      ['spec.z', 'last'],
    ]);
    expect(JSON.parse(JSON.stringify(result)).sourceMap).toEqual(result.sourceMap);
    result.sourceMap = { replaced: 'yes' };
    expect(result.sourceMap).toEqual({ replaced: 'yes' });
  });
});
