import { describe, expect, it } from 'vitest';
import { literals, render } from './fixtures.ts';

describe('paths (docs/spec/env.md §2)', () => {
  it.each(['$.spec.auth', '.spec.auth', 'spec.auth'])('accepts the spelling %s', async (path) => {
    const result = await render({ auth: { user: 'bob' }, region: 'eu' }, { fromSpec: { skip: [{ path }] } });
    expect(literals(result)).toEqual(['REGION=eu']);
  });

  it('compares segments case-sensitively', async () => {
    const result = await render({ auth: 'x' }, { fromSpec: { skip: [{ path: 'spec.Auth' }] } });
    expect(literals(result)).toEqual(['AUTH=x']);
  });

  it('treats a path through an array, a string or a number as absent', async () => {
    const result = await render(
      { list: [{ x: 1 }], text: 'abc', count: 3 },
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.list.x', name: 'LIST_X', default: { value: 'absent' } },
            { path: 'spec.text.length', name: 'TEXT_LENGTH', default: { value: 'absent' } },
            { path: 'spec.count.x', name: 'COUNT_X', default: { value: 'absent' } },
          ],
        },
      },
    );
    expect(literals(result)).toEqual([
      'COUNT=3',
      'COUNT_X=absent',
      'LIST=[{"x":1}]',
      'LIST_X=absent',
      'TEXT=abc',
      'TEXT_LENGTH=absent',
    ]);
  });

  it('finds only own keys, never inherited ones such as constructor', async () => {
    const result = await render(
      { nested: {} },
      {
        fromSpec: {
          toEnv: [{ path: 'spec.nested.constructor', name: 'CTOR', default: { value: 'absent' } }],
        },
      },
    );
    expect(literals(result)).toEqual(['CTOR=absent']);
  });

  it('cannot address a key containing a dot, which default rendering still renders', async () => {
    const result = await render(
      { 'a.b': 'dotted', c: { 'd.e': 1 } },
      { fromSpec: { skip: [{ path: 'spec.a.b' }], toEnv: [{ path: 'spec.c.d.e', name: 'DE' }] } },
    );
    expect(literals(result)).toEqual(['A_B=dotted', 'C_D_E=1']);
  });

  it('reports malformed configuration paths as render errors and ignores those entries', async () => {
    const result = await render(
      { a: 1 },
      {
        fromSpec: {
          skip: [{ path: 'spec' }, { path: 'spec..a' }],
          toVolume: [
            { path: 'a.b', name: 'v', mountPath: '/v', mountFrom: { configMapPath: { name: 'spec.a' } } },
          ],
          toEnv: [{ path: '$spec.a' }, { path: 'spec.a.' }],
        },
      },
    );
    expect(result.errors).toEqual([
      'spec.workload.parameterConfiguration.fromSpec.skip[0].path: invalid path "spec": must name a field below "spec"',
      'spec.workload.parameterConfiguration.fromSpec.skip[1].path: invalid path "spec..a": empty path segment',
      'spec.workload.parameterConfiguration.fromSpec.toVolume[0].path: invalid path "a.b": must start with "spec."',
      'spec.workload.parameterConfiguration.fromSpec.toEnv[0].path: invalid path "$spec.a": must start with "spec."',
      'spec.workload.parameterConfiguration.fromSpec.toEnv[1].path: invalid path "spec.a.": empty path segment',
    ]);
    expect(literals(result)).toEqual(['A=1']);
  });

  it('reports a malformed reference path at the instruction that uses it', async () => {
    const result = await render(
      { creds: { name: 'n' } },
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.creds', valueFrom: { secretPath: { name: 'spec.creds.name', key: 'creds.key' } } },
          ],
        },
      },
    );
    expect(result.errors).toEqual([
      'spec.creds: valueFrom.secretPath.key: invalid path "creds.key": must start with "spec."',
    ]);
  });

  it('reports an unknown built-in function', async () => {
    const result = await render(
      { sink: { uri: '/x' } },
      { fromSpec: { toEnv: [{ path: 'spec.sink', valueFrom: { builtInFunc: { name: 'toUpper' } } }] } },
    );
    expect(result.errors).toEqual([
      'spec.workload.parameterConfiguration.fromSpec.toEnv[0].valueFrom.builtInFunc.name: unknown built-in function "toUpper" (available: "resolveAddress")',
    ]);
    expect(result.env).toEqual([]);
  });
});

describe('generated names (docs/spec/env.md §3)', () => {
  it('upper-cases locale-independently, keeps camelCase unsplit and every character but the dot', async () => {
    const result = await render({ maxBytes: 1, 'my-key': 2, straße: 3, café: { señor: 4 }, ıi: 5 });
    expect(literals(result)).toEqual(['CAFÉ_SEÑOR=4', 'II=5', 'MAXBYTES=1', 'MY-KEY=2', 'STRASSE=3']);
  });

  it('prepends the prefix verbatim to generated names only', async () => {
    const result = await render(
      { topic: 't', named: 'n', nested: { deep: 'd' } },
      {
        global: { defaultPrefix: 'kafka-' },
        fromSpec: { toEnv: [{ path: 'spec.named', name: 'EXPLICIT' }, { path: 'spec.nested.deep' }] },
        add: { toEnv: [{ name: 'ADDED', value: 'a' }] },
      },
    );
    expect(literals(result)).toEqual(['ADDED=a', 'EXPLICIT=n', 'kafka-NESTED_DEEP=d', 'kafka-TOPIC=t']);
  });

  it('gives a default on a path with missing parents the generated name of the full path', async () => {
    const result = await render(
      {},
      {
        global: { defaultPrefix: 'P_' },
        fromSpec: { toEnv: [{ path: 'spec.cache.sizeMb', default: { value: '64' } }] },
      },
    );
    expect(literals(result)).toEqual(['P_CACHE_SIZEMB=64']);
  });
});
