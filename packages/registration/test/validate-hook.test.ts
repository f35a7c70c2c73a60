import { describe, expect, it } from 'vitest';
import { problemAt, problemsOf, withHook } from './fixtures.ts';

const ref = { apiVersion: 'v1', kind: 'Service', name: 'mailer-hook', namespace: 'hooks' };

describe('row 12: hook.version', () => {
  it.each(['v1', '1', 1])('accepts %j', (version) => {
    expect(problemsOf(withHook({ version }))).toEqual([]);
  });

  it.each([
    ['v2', '"v2"'],
    [2, '"2"'],
    ['V1', '"V1"'],
    ['', '""'],
  ])('rejects %j', (version, shown) => {
    expect(problemsOf(withHook({ version }))).toEqual([
      problemAt(
        'spec.hook.version',
        'InvalidHookVersion',
        `unsupported hooks API version ${shown} (supported: "v1")`,
      ),
    ]);
  });
});

describe('row 13: hook.address', () => {
  const R = 'InvalidHookAddress';
  const A = 'spec.hook.address';

  it.each([
    [{ ref }],
    [{ ref, uri: 'http://:8080/v1' }],
    [{ ref, uri: '/v1' }],
    [{ ref, uri: 'https://' }],
    [{ ref, uri: '?format=ce' }],
    [{ uri: 'https://api.example.net/in' }],
    [{ uri: 'http://[::1]:8080/v1' }],
  ])('accepts %j', (address) => {
    expect(problemsOf(withHook({ address }))).toEqual([]);
  });

  it('accepts a module instead of an address (an in-process hook)', () => {
    expect(problemsOf(withHook({ address: undefined, module: '@acme/mailer-hook' }))).toEqual([]);
  });

  it.each([
    ['both address and module', { module: '@acme/mailer-hook' }],
    ['neither address nor module', { address: undefined }],
  ])('rejects %s', (_case, fields) => {
    expect(problemsOf(withHook(fields))).toEqual([
      problemAt('spec.hook', R, 'exactly one of address, module must be set'),
    ]);
  });

  it('rejects an empty module name through the schema', () => {
    expect(problemsOf(withHook({ address: undefined, module: '' }))).toEqual([
      expect.objectContaining({ path: 'spec.hook.module', reason: 'InvalidSpec' }),
    ]);
  });

  it('rejects an address with neither ref nor uri', () => {
    expect(problemsOf(withHook({ address: {} }))).toEqual([problemAt(A, R, 'one of ref or uri must be set')]);
  });

  it.each(['apiVersion', 'kind', 'name', 'namespace'])('rejects a ref without %s', (field) => {
    const partial = { ...ref, [field]: undefined };
    expect(problemsOf(withHook({ address: { ref: JSON.parse(JSON.stringify(partial)) } }))).toEqual([
      problemAt(`${A}.ref.${field}`, R, 'required, a CRDRegistration is cluster scoped'),
    ]);
  });

  it('reports every missing ref field in order, empty strings included', () => {
    expect(problemsOf(withHook({ address: { ref: { kind: 'Service', namespace: '' } } }))).toEqual([
      problemAt(`${A}.ref.apiVersion`, R, 'required, a CRDRegistration is cluster scoped'),
      problemAt(`${A}.ref.name`, R, 'required, a CRDRegistration is cluster scoped'),
      problemAt(`${A}.ref.namespace`, R, 'required, a CRDRegistration is cluster scoped'),
    ]);
  });

  it.each(['/v1', 'http://:8080/v1', '//host/v1', 'https://'])(
    'rejects the non-absolute uri %j without ref',
    (uri) => {
      expect(problemsOf(withHook({ address: { uri } }))).toEqual([
        problemAt(
          `${A}.uri`,
          R,
          `${JSON.stringify(uri)} must be an absolute http or https URI when no ref is set`,
        ),
      ]);
    },
  );

  it('rejects a uri with a host next to a ref', () => {
    expect(problemsOf(withHook({ address: { ref, uri: 'http://other/v1' } }))).toEqual([
      problemAt(
        `${A}.uri`,
        R,
        'URI should not contain a host while also informing a Reference: "http://other/v1"',
      ),
    ]);
  });

  it.each([[{ uri: 'ftp://files.example.com/x' }], [{ ref, uri: 'ftp:/x' }]])(
    'rejects the scheme of %j',
    (address) => {
      expect(problemsOf(withHook({ address }))).toEqual([
        problemAt(`${A}.uri`, R, 'unsupported scheme "ftp" (supported: http, https)'),
      ]);
    },
  );

  it('rejects an unparsable uri', () => {
    expect(problemsOf(withHook({ address: { uri: 'http://[::1' } }))).toEqual([
      problemAt(`${A}.uri`, R, 'invalid URI "http://[::1": unclosed "[" in host "[::1"'),
    ]);
    expect(problemsOf(withHook({ address: { ref, uri: 'http://:abc/v1' } }))).toEqual([
      problemAt(`${A}.uri`, R, 'invalid URI "http://:abc/v1": invalid port "abc": only digits are allowed'),
    ]);
  });

  it('reports ref and uri problems together, ref first', () => {
    expect(
      problemsOf(withHook({ address: { ref: { ...ref, namespace: '' }, uri: 'http://other' } })),
    ).toEqual([
      problemAt(`${A}.ref.namespace`, R, 'required, a CRDRegistration is cluster scoped'),
      problemAt(
        `${A}.uri`,
        R,
        'URI should not contain a host while also informing a Reference: "http://other"',
      ),
    ]);
  });
});

describe('row 14: hook.timeout', () => {
  it.each(['PT5S', 'PT0.5S', 'PT0,5S', 'P1D', ''])('accepts %j', (timeout) => {
    expect(problemsOf(withHook({ timeout }))).toEqual([]);
  });

  it.each(['10s', '15s', 'P', 'PT', '-PT5S', '5'])('rejects %j as not a duration', (timeout) => {
    expect(problemsOf(withHook({ timeout }))).toEqual([
      problemAt(
        'spec.hook.timeout',
        'InvalidHookTimeout',
        `${JSON.stringify(timeout)} is not an ISO 8601 duration (for example "PT10S")`,
      ),
    ]);
  });

  it.each(['PT0S', 'P0D', 'PT0.0S'])('rejects the zero duration %j', (timeout) => {
    expect(problemsOf(withHook({ timeout }))).toEqual([
      problemAt('spec.hook.timeout', 'InvalidHookTimeout', 'must be greater than zero'),
    ]);
  });
});

describe('row 15: hook.capabilities', () => {
  it('accepts both capabilities, the finalization alias and duplicates', () => {
    expect(
      problemsOf(withHook({ capabilities: ['pre-reconcile', 'finalize', 'finalization', 'finalize'] })),
    ).toEqual([]);
  });

  it('rejects an unknown capability', () => {
    expect(problemsOf(withHook({ capabilities: ['pre-reconcile', 'post-reconcile'] }))).toEqual([
      problemAt(
        'spec.hook.capabilities[1]',
        'InvalidHookCapability',
        'unknown capability "post-reconcile" (supported: "pre-reconcile", "finalize")',
      ),
    ]);
  });
});

describe('row 17: hook.failurePolicy', () => {
  it.each(['Fail', 'Ignore'])('accepts %j', (failurePolicy) => {
    expect(problemsOf(withHook({ failurePolicy }))).toEqual([]);
  });

  it.each(['ignore', 'Continue', ''])('rejects %j', (failurePolicy) => {
    expect(problemsOf(withHook({ failurePolicy }))).toEqual([
      problemAt(
        'spec.hook.failurePolicy',
        'InvalidHookFailurePolicy',
        `unknown failure policy ${JSON.stringify(failurePolicy)} (supported: "Fail", "Ignore")`,
      ),
    ]);
  });

  it('reserves HookSucceeded among conditionsFromHook under Ignore only', () => {
    const withCondition = (failurePolicy: string): unknown => {
      const input = withHook({ failurePolicy, capabilities: ['pre-reconcile'] }) as {
        spec: { workload: Record<string, unknown> };
      };
      input.spec.workload['statusConfiguration'] = { conditionsFromHook: [{ type: 'HookSucceeded' }] };
      return input;
    };
    expect(problemsOf(withCondition('Fail'))).toEqual([]);
    expect(problemsOf(withCondition('Ignore'))).toEqual([
      problemAt(
        'spec.workload.statusConfiguration.conditionsFromHook[0].type',
        'InvalidStatusConfiguration',
        '"HookSucceeded" is managed by Scoby when spec.hook.failurePolicy is Ignore',
      ),
    ]);
  });
});

describe('row 18: resyncPeriod', () => {
  const withResync = (resyncPeriod: string): unknown => {
    const input = withHook({}) as { spec: Record<string, unknown> };
    input.spec['resyncPeriod'] = resyncPeriod;
    return input;
  };

  it.each(['PT30S', 'PT0.5M', 'PT10M', 'P1D', ''])('accepts %j', (resyncPeriod) => {
    expect(problemsOf(withResync(resyncPeriod))).toEqual([]);
  });

  it.each([
    ['30s', '"30s" is not an ISO 8601 duration (for example "PT10M")'],
    ['-PT1M', '"-PT1M" is not an ISO 8601 duration (for example "PT10M")'],
    ['PT29S', '"PT29S" is shorter than the minimum PT30S'],
    ['PT0S', '"PT0S" is shorter than the minimum PT30S'],
  ])('rejects %j', (resyncPeriod, detail) => {
    expect(problemsOf(withResync(resyncPeriod))).toEqual([
      problemAt('spec.resyncPeriod', 'InvalidResyncPeriod', detail),
    ]);
  });
});
