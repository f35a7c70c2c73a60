import { describe, expect, it } from 'vitest';
import type { NormalizedRegistrationSpec } from '../src/types.ts';
import { validateRegistration } from '../src/validation/validate-registration.ts';
import { mailerExample, registration, testCatalog, withHook, withParameters } from './fixtures.ts';

function normalized(input: unknown): NormalizedRegistrationSpec {
  const result = validateRegistration(input, testCatalog());
  if (!result.ok) throw new Error(result.message);
  return result.spec;
}

const EMPTY_PARAMETERS = {
  global: { defaultPrefix: '' },
  fromSpec: { skip: [], toEnv: [], toVolume: [] },
  add: { toEnv: [], toVolume: [] },
};

describe('defaulting and normalisation (docs/spec/registration.md §3)', () => {
  it('normalises the example of §2 exactly', () => {
    expect(normalized(mailerExample())).toEqual({
      crd: 'mailers.notify.example.com',
      image: 'registry.example.com/mailer-adapter:1.4.2',
      formFactor: { name: 'deployment', config: { replicas: 2, service: { port: 80, targetPort: 8080 } } },
      parameterConfiguration: {
        global: { defaultPrefix: 'MAILER_' },
        fromSpec: {
          skip: [],
          toEnv: [
            {
              path: 'spec.smtp.passwordRef',
              name: 'SMTP_PASSWORD',
              valueFrom: {
                secretPath: { name: 'spec.smtp.passwordRef.secretName', key: 'spec.smtp.passwordRef.key' },
              },
            },
          ],
          toVolume: [],
        },
        add: {
          toEnv: [{ name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } }],
          toVolume: [],
        },
      },
      statusConfiguration: { add: [], conditionsFromHook: ['QuotaChecked'] },
      hook: {
        version: 'v1',
        address: {
          ref: { apiVersion: 'v1', kind: 'Service', name: 'mailer-hook', namespace: 'hooks' },
          uri: 'http://:8080/v1',
        },
        timeoutMs: 5000,
        capabilities: ['pre-reconcile', 'finalize'],
        failurePolicy: 'Fail',
      },
    });
  });

  it('defaults a minimal registration: one-replica Deployment, empty configuration, no hook', () => {
    expect(normalized(registration())).toEqual({
      crd: 'mailers.notify.example.com',
      image: 'registry.example.com/mailer-adapter:1.4.2',
      formFactor: { name: 'deployment', config: { replicas: 1 } },
      parameterConfiguration: EMPTY_PARAMETERS,
      statusConfiguration: { add: [], conditionsFromHook: [] },
    });
  });

  it.each([[{}], [{ deployment: null }], [{ deployment: {} }]])(
    'selects a one-replica Deployment for %j',
    (formFactor) => {
      expect(normalized(registration({ formFactor })).formFactor).toEqual({
        name: 'deployment',
        config: { replicas: 1 },
      });
    },
  );

  it('selects the one set form factor through the catalog, ignoring null keys', () => {
    expect(
      normalized(registration({ formFactor: { deployment: null, knativeService: { maxScale: 3 } } }))
        .formFactor,
    ).toEqual({
      name: 'knativeService',
      config: { maxScale: 3 },
    });
  });

  it('maps defaultValue to default.value and fieldRef to field', () => {
    const spec = normalized(
      withParameters({
        fromSpec: { toEnv: [{ path: 'spec.level', defaultValue: 'info' }] },
        add: {
          toEnv: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }],
        },
      }),
    );
    expect(spec.parameterConfiguration.fromSpec.toEnv).toEqual([
      { path: 'spec.level', default: { value: 'info' } },
    ]);
    expect(spec.parameterConfiguration.add.toEnv).toEqual([
      { name: 'POD', valueFrom: { field: { fieldPath: 'metadata.name', apiVersion: 'v1' } } },
    ]);
  });

  it('does not alias the input', () => {
    const input = withParameters({ fromSpec: { skip: [{ path: 'spec.a' }] } }) as {
      spec: { workload: object };
    };
    const spec = normalized(input);
    spec.parameterConfiguration.fromSpec.skip.push({ path: 'spec.b' });
    expect(input.spec.workload).toEqual({
      fromImage: { repo: 'registry.example.com/mailer-adapter:1.4.2' },
      parameterConfiguration: { fromSpec: { skip: [{ path: 'spec.a' }] } },
    });
  });

  it.each([
    [undefined, 15_000],
    ['', 15_000],
    ['PT1M30S', 90_000],
    ['PT0.5S', 500],
  ])('timeout %j → timeoutMs %d', (timeout, timeoutMs) => {
    expect(normalized(withHook(timeout === undefined ? {} : { timeout })).hook?.timeoutMs).toBe(timeoutMs);
  });

  it('dedupes capabilities in first-seen order, finalization meaning finalize', () => {
    expect(
      normalized(withHook({ capabilities: ['finalization', 'pre-reconcile', 'finalize', 'pre-reconcile'] }))
        .hook?.capabilities,
    ).toEqual(['finalize', 'pre-reconcile']);
    expect(normalized(withHook({})).hook?.capabilities).toEqual([]);
  });

  it('keeps the module of an in-process hook, and no address', () => {
    expect(
      normalized(withHook({ address: undefined, module: '@acme/mailer-hook', timeout: 'PT2S' })).hook,
    ).toEqual({
      version: 'v1',
      module: '@acme/mailer-hook',
      timeoutMs: 2000,
      capabilities: [],
      failurePolicy: 'Fail',
    });
  });

  it.each(['v1', '1', 1])(
    'normalises version %j to "v1" and keeps only ref and uri of the address',
    (version) => {
      const hook = normalized(
        withHook({ version, address: { uri: 'https://h.example.com/', extra: true } }),
      ).hook;
      expect(hook).toEqual({
        version: 'v1',
        address: { uri: 'https://h.example.com/' },
        timeoutMs: 15_000,
        capabilities: [],
        failurePolicy: 'Fail',
      });
    },
  );

  it.each([
    [undefined, 'Fail'],
    ['Fail', 'Fail'],
    ['Ignore', 'Ignore'],
  ])('failurePolicy %j → %s', (failurePolicy, expected) => {
    const fields = failurePolicy === undefined ? {} : { failurePolicy };
    expect(normalized(withHook(fields)).hook?.failurePolicy).toBe(expected);
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['PT30S', 30_000],
    ['PT10M', 600_000],
  ])('resyncPeriod %j → resyncPeriodMs %j', (resyncPeriod, resyncPeriodMs) => {
    const input = registration() as { spec: Record<string, unknown> };
    if (resyncPeriod !== undefined) input.spec['resyncPeriod'] = resyncPeriod;
    expect(normalized(input).resyncPeriodMs).toBe(resyncPeriodMs);
  });
});
