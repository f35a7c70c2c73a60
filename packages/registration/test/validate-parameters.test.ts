import { describe, expect, it } from 'vitest';
import { P, problemAt, problemsOf, withParameters } from './fixtures.ts';

const R = 'InvalidParameterConfiguration';
const secretMount = { secretPath: { secretName: 'spec.tls.secret' } };

describe('row 4: path syntax (docs/spec/env.md §2)', () => {
  it('accepts every written path in its three spellings', () => {
    const fromSpec = {
      skip: [{ path: '$.spec.internal' }],
      toEnv: [
        { path: '.spec.smtp', valueFrom: { configMapPath: { name: 'spec.smtp.cm', key: 'spec.smtp.key' } } },
      ],
      toVolume: [
        {
          path: 'spec.tls',
          name: 'tls',
          mountPath: '/tls',
          mountFrom: {
            secretPath: { secretName: 'spec.tls.secret', items: [{ key: 'spec.tls.crt', path: 'tls.crt' }] },
          },
        },
      ],
    };
    expect(problemsOf(withParameters({ fromSpec }))).toEqual([]);
  });

  it('rejects the example of the table', () => {
    expect(problemsOf(withParameters({ fromSpec: { skip: [{ path: 'status.x' }] } }))).toEqual([
      problemAt(`${P}.fromSpec.skip[0].path`, R, 'invalid path "status.x": must start with "spec."'),
    ]);
  });

  it('checks every path field, in document order', () => {
    const fromSpec = {
      skip: [{ path: 'spec' }],
      toEnv: [
        { path: 'spec..a', valueFrom: { configMapPath: { name: 'a.b', key: 'spec.k' } } },
        { path: 'spec.b', valueFrom: { secretPath: { name: 'spec.n', key: 'spec.a.' } } },
      ],
      toVolume: [
        {
          path: '$spec.a',
          name: 'v',
          mountPath: '/v',
          mountFrom: { configMapPath: { name: '$..spec.a', items: [{ key: 'key', path: 'p' }] } },
        },
        {
          path: 'spec.c',
          name: 'w',
          mountPath: '/w',
          mountFrom: { secretPath: { secretName: 'x', items: [{ key: 'y', path: 'p' }] } },
        },
      ],
    };
    expect(problemsOf(withParameters({ fromSpec }))).toEqual([
      problemAt(`${P}.fromSpec.skip[0].path`, R, 'invalid path "spec": must name a field below "spec"'),
      problemAt(`${P}.fromSpec.toEnv[0].path`, R, 'invalid path "spec..a": empty path segment'),
      problemAt(
        `${P}.fromSpec.toEnv[0].valueFrom.configMapPath.name`,
        R,
        'invalid path "a.b": must start with "spec."',
      ),
      problemAt(
        `${P}.fromSpec.toEnv[1].valueFrom.secretPath.key`,
        R,
        'invalid path "spec.a.": empty path segment',
      ),
      problemAt(`${P}.fromSpec.toVolume[0].path`, R, 'invalid path "$spec.a": must start with "spec."'),
      problemAt(
        `${P}.fromSpec.toVolume[0].mountFrom.configMapPath.name`,
        R,
        'invalid path "$..spec.a": empty path segment',
      ),
      problemAt(
        `${P}.fromSpec.toVolume[0].mountFrom.configMapPath.items[0].key`,
        R,
        'invalid path "key": must start with "spec."',
      ),
      problemAt(
        `${P}.fromSpec.toVolume[1].mountFrom.secretPath.secretName`,
        R,
        'invalid path "x": must start with "spec."',
      ),
      problemAt(
        `${P}.fromSpec.toVolume[1].mountFrom.secretPath.items[0].key`,
        R,
        'invalid path "y": must start with "spec."',
      ),
    ]);
  });

  it('does not treat add.toVolume names and keys as paths', () => {
    const add = {
      toVolume: [
        {
          name: 'cfg',
          mountPath: '/cfg',
          mountFrom: { configMapPath: { name: 'literal', items: [{ key: 'k', path: 'p' }] } },
        },
      ],
    };
    expect(problemsOf(withParameters({ add }))).toEqual([]);
  });
});

describe('row 5: duplicate instruction paths', () => {
  it('rejects the same path twice in fromSpec.toEnv, comparing normalised paths', () => {
    const toEnv = [
      { path: 'spec.a' },
      { path: 'spec.region' },
      { path: 'spec.b' },
      { path: '$.spec.region' },
    ];
    expect(problemsOf(withParameters({ fromSpec: { toEnv } }))).toEqual([
      problemAt(`${P}.fromSpec.toEnv[3].path`, R, 'duplicate path "spec.region" (also at index 1)'),
    ]);
  });

  it('rejects the same path twice in fromSpec.toVolume', () => {
    const volume = (name: string) => ({
      path: 'spec.tls',
      name,
      mountPath: `/${name}`,
      mountFrom: secretMount,
    });
    expect(problemsOf(withParameters({ fromSpec: { toVolume: [volume('a'), volume('b')] } }))).toEqual([
      problemAt(`${P}.fromSpec.toVolume[1].path`, R, 'duplicate path "spec.tls" (also at index 0)'),
    ]);
  });

  it('allows one path in toEnv, toVolume and skip at once (precedence decides, docs/spec/env.md §5)', () => {
    const fromSpec = {
      skip: [{ path: 'spec.tls' }],
      toEnv: [{ path: 'spec.tls' }],
      toVolume: [{ path: 'spec.tls', name: 'tls', mountPath: '/tls', mountFrom: secretMount }],
    };
    expect(problemsOf(withParameters({ fromSpec }))).toEqual([]);
  });
});

describe('row 6: environment variable names', () => {
  it('rejects a name repeated across add.toEnv and fromSpec.toEnv', () => {
    const parameters = {
      add: { toEnv: [{ name: 'REGION', value: 'eu' }] },
      fromSpec: {
        toEnv: [{ path: 'spec.a', name: 'A' }, { path: 'spec.b' }, { path: 'spec.region', name: 'REGION' }],
      },
    };
    expect(problemsOf(withParameters(parameters))).toEqual([
      problemAt(
        `${P}.fromSpec.toEnv[2].name`,
        R,
        `duplicate environment variable name "REGION" (also at ${P}.add.toEnv[0].name)`,
      ),
    ]);
  });

  it('rejects repeats within add.toEnv and within fromSpec.toEnv', () => {
    const parameters = {
      add: {
        toEnv: [
          { name: 'X', value: '1' },
          { name: 'X', value: '2' },
        ],
      },
      fromSpec: {
        toEnv: [
          { path: 'spec.a', name: 'Y' },
          { path: 'spec.b', name: 'Y' },
        ],
      },
    };
    expect(problemsOf(withParameters(parameters))).toEqual([
      problemAt(
        `${P}.add.toEnv[1].name`,
        R,
        `duplicate environment variable name "X" (also at ${P}.add.toEnv[0].name)`,
      ),
      problemAt(
        `${P}.fromSpec.toEnv[1].name`,
        R,
        `duplicate environment variable name "Y" (also at ${P}.fromSpec.toEnv[0].name)`,
      ),
    ]);
  });

  it('rejects empty names, in document order with repeats', () => {
    const parameters = {
      add: {
        toEnv: [
          { name: 'X', value: '1' },
          { name: 'X', value: '2' },
          { name: '', value: '3' },
        ],
      },
      fromSpec: { toEnv: [{ path: 'spec.a', name: '' }] },
    };
    expect(problemsOf(withParameters(parameters))).toEqual([
      problemAt(
        `${P}.add.toEnv[1].name`,
        R,
        `duplicate environment variable name "X" (also at ${P}.add.toEnv[0].name)`,
      ),
      problemAt(`${P}.add.toEnv[2].name`, R, 'environment variable name must not be empty'),
      problemAt(`${P}.fromSpec.toEnv[0].name`, R, 'environment variable name must not be empty'),
    ]);
  });

  it('ignores generated names (collisions with them are resolved at render time, docs/spec/env.md §7)', () => {
    const parameters = {
      add: { toEnv: [{ name: 'REGION', value: 'eu' }] },
      fromSpec: { toEnv: [{ path: 'spec.region' }] },
    };
    expect(problemsOf(withParameters(parameters))).toEqual([]);
  });
});

describe('row 7: volume names', () => {
  it('rejects a name repeated across fromSpec.toVolume and add.toVolume', () => {
    const parameters = {
      fromSpec: {
        toVolume: [
          { path: 'spec.ca', name: 'ca', mountPath: '/ca', mountFrom: secretMount },
          { path: 'spec.tls', name: 'tls', mountPath: '/tls', mountFrom: secretMount },
        ],
      },
      add: { toVolume: [{ name: 'tls', mountPath: '/x', mountFrom: { secretPath: { secretName: 'tls' } } }] },
    };
    expect(problemsOf(withParameters(parameters))).toEqual([
      problemAt(
        `${P}.add.toVolume[0].name`,
        R,
        `duplicate volume name "tls" (also at ${P}.fromSpec.toVolume[1].name)`,
      ),
    ]);
  });
});

describe('row 8: legacy alias and target both set (docs/spec/registration.md §3.5)', () => {
  it('rejects defaultValue with default', () => {
    const toEnv = [
      { path: 'spec.a', defaultValue: 'x' },
      { path: 'spec.b', defaultValue: 'x', default: { value: 'y' } },
    ];
    expect(problemsOf(withParameters({ fromSpec: { toEnv } }))).toEqual([
      problemAt(`${P}.fromSpec.toEnv[1]`, R, '"defaultValue" and "default" cannot both be set'),
    ]);
  });

  it('rejects fieldRef with field', () => {
    const field = { fieldPath: 'metadata.name' };
    const toEnv = [
      { name: 'A', valueFrom: { fieldRef: field } },
      { name: 'B', valueFrom: { fieldRef: field, field } },
    ];
    expect(problemsOf(withParameters({ add: { toEnv } }))).toEqual([
      problemAt(`${P}.add.toEnv[1].valueFrom`, R, '"fieldRef" and "field" cannot both be set'),
    ]);
  });
});

describe('row 9: exactly one / at most one', () => {
  const selector = { name: 'cm', key: 'k' };

  it('fromSpec.toEnv default: at most one of value, configMap, secret', () => {
    const toEnv = [
      { path: 'spec.a', default: { configMap: selector } },
      { path: 'spec.b', default: { value: 'v', secret: selector } },
    ];
    expect(problemsOf(withParameters({ fromSpec: { toEnv } }))).toEqual([
      problemAt(`${P}.fromSpec.toEnv[1].default`, R, 'at most one of value, configMap, secret may be set'),
    ]);
  });

  it('fromSpec.toEnv valueFrom: at most one of configMapPath, secretPath, builtInFunc', () => {
    const paths = { name: 'spec.n', key: 'spec.k' };
    const toEnv = [
      { path: 'spec.a', valueFrom: {} },
      { path: 'spec.b', valueFrom: { secretPath: paths, builtInFunc: { name: 'resolveAddress' } } },
    ];
    expect(problemsOf(withParameters({ fromSpec: { toEnv } }))).toEqual([
      problemAt(
        `${P}.fromSpec.toEnv[1].valueFrom`,
        R,
        'at most one of configMapPath, secretPath, builtInFunc may be set',
      ),
    ]);
  });

  it('toVolume mountFrom: exactly one of configMapPath, secretPath', () => {
    const both = { configMapPath: { name: 'spec.cm' }, secretPath: { secretName: 'spec.s' } };
    const parameters = {
      fromSpec: { toVolume: [{ path: 'spec.a', name: 'a', mountPath: '/a', mountFrom: {} }] },
      add: { toVolume: [{ name: 'b', mountPath: '/b', mountFrom: both }] },
    };
    expect(problemsOf(withParameters(parameters))).toEqual([
      problemAt(
        `${P}.fromSpec.toVolume[0].mountFrom`,
        R,
        'exactly one of configMapPath, secretPath must be set',
      ),
      problemAt(`${P}.add.toVolume[0].mountFrom`, R, 'exactly one of configMapPath, secretPath must be set'),
    ]);
  });

  it('add.toEnv: exactly one of value, valueFrom, valueFromControllerConfigMap; valueFrom: exactly one source', () => {
    const toEnv = [
      { name: 'A', value: '' },
      { name: 'B', valueFromControllerConfigMap: selector },
      { name: 'C', valueFrom: { secret: selector } },
      { name: 'D' },
      { name: 'E', value: 'x', valueFromControllerConfigMap: selector },
      { name: 'F', valueFrom: {} },
      { name: 'G', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, configMap: selector } },
    ];
    expect(problemsOf(withParameters({ add: { toEnv } }))).toEqual([
      problemAt(
        `${P}.add.toEnv[3]`,
        R,
        'exactly one of value, valueFrom, valueFromControllerConfigMap must be set',
      ),
      problemAt(
        `${P}.add.toEnv[4]`,
        R,
        'exactly one of value, valueFrom, valueFromControllerConfigMap must be set',
      ),
      problemAt(`${P}.add.toEnv[5].valueFrom`, R, 'exactly one of field, configMap, secret must be set'),
      problemAt(`${P}.add.toEnv[6].valueFrom`, R, 'exactly one of field, configMap, secret must be set'),
    ]);
  });
});

describe('row 10: built-in functions', () => {
  it('accepts resolveAddress (args ignored) and rejects any other name', () => {
    const toEnv = [
      { path: 'spec.sink', valueFrom: { builtInFunc: { name: 'resolveAddress', args: ['x'] } } },
      { path: 'spec.a' },
      { path: 'spec.name', valueFrom: { builtInFunc: { name: 'toUpper' } } },
    ];
    expect(problemsOf(withParameters({ fromSpec: { toEnv } }))).toEqual([
      problemAt(
        `${P}.fromSpec.toEnv[2].valueFrom.builtInFunc.name`,
        'InvalidBuiltInFunc',
        'unknown built-in function "toUpper" (available: "resolveAddress")',
      ),
    ]);
  });
});
