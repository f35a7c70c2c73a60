import { createHookClient, type HookClient, type HookServer } from '@scoby/hooks-v1';
import { afterEach, describe, expect, it } from 'vitest';
import { createExampleHook, type ExampleHookOptions } from '../src/index.ts';
import { call, deployment, deploymentWithAdapterEnv, instance, service } from './fixtures.ts';

let hook: HookServer | undefined;
let client: HookClient | undefined;

afterEach(async () => {
  client?.close();
  await hook?.close();
  hook = client = undefined;
});

async function start(options: ExampleHookOptions = {}): Promise<string> {
  hook = await createExampleHook(options);
  client = createHookClient();
  return hook.url;
}

const mailerEnv = { name: 'MAILER_SMTP_HOST', value: 'mail.internal' };
const readyUnknown = {
  type: 'Ready',
  status: 'Unknown',
  reason: 'UNKNOWN',
  message: '',
  lastTransitionTime: '2025-03-02T10:15:58Z',
};
const hookOk = {
  type: 'HookChecked',
  status: 'True',
  reason: 'HookOK',
  message: 'checked by the example hook',
};

function withStatus(status: object) {
  return { ...instance, status };
}

describe('pre-reconcile', () => {
  it('adds EXAMPLE_HOOK=on to the adapter, sets HookChecked and the hooked annotation', async () => {
    const url = await start();
    expect(await client?.call(call(url, 'pre-reconcile'))).toEqual({
      ok: true,
      object: {
        status: {
          observedGeneration: 2,
          annotations: { kept: 'yes', 'example.triggermesh.io/hooked': 'true' },
          conditions: [readyUnknown, hookOk],
        },
      },
      children: {
        deployment: deploymentWithAdapterEnv([mailerEnv, { name: 'EXAMPLE_HOOK', value: 'on' }]),
        service,
      },
    });
  });

  it('uses the configured variable and condition type, replacing an existing variable of that name', async () => {
    const url = await start({
      envName: 'MAILER_SMTP_HOST',
      envValue: 'hooked.internal',
      conditionType: 'QuotaChecked',
    });
    expect(await client?.call(call(url, 'pre-reconcile', { object: withStatus({}) }))).toEqual({
      ok: true,
      object: {
        status: {
          annotations: { 'example.triggermesh.io/hooked': 'true' },
          conditions: [{ ...hookOk, type: 'QuotaChecked' }],
        },
      },
      children: {
        deployment: deploymentWithAdapterEnv([{ name: 'MAILER_SMTP_HOST', value: 'hooked.internal' }]),
        service,
      },
    });
  });

  it('is idempotent: its own answer fed back gives the same answer', async () => {
    const url = await start();
    const first = await client?.call(call(url, 'pre-reconcile'));
    if (!first?.ok || first.object?.status === undefined || first.children === undefined)
      throw new Error('no answer');
    const again = await client?.call(
      call(url, 'pre-reconcile', { object: withStatus(first.object.status), children: first.children }),
    );
    expect(again).toEqual(first);
  });

  it('leaves the children alone without a deployment child or adapter container', async () => {
    const url = await start();
    const ksvc = {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      metadata: { name: 'mailer-orders' },
      spec: {},
    };
    const noAdapter = { ...deployment, spec: { template: { spec: { containers: [{ name: 'other' }] } } } };
    const status = { annotations: { 'example.triggermesh.io/hooked': 'true' }, conditions: [hookOk] };
    const asKsvc = call(url, 'pre-reconcile', {
      formFactor: 'ksvc',
      object: withStatus({}),
      children: { ksvc },
      managedKinds: [{ apiVersion: 'serving.knative.dev/v1', kind: 'Service' }],
    });
    expect(await client?.call(asKsvc)).toEqual({ ok: true, object: { status } });
    const withoutAdapter = call(url, 'pre-reconcile', {
      object: withStatus({}),
      children: { deployment: noAdapter },
    });
    expect(await client?.call(withoutAdapter)).toEqual({ ok: true, object: { status } });
  });
});

describe('finalize', () => {
  it('accepts at once when no condition is configured', async () => {
    const url = await start();
    expect(await client?.call(call(url, 'finalize'))).toEqual({ ok: true });
  });

  it('refuses with 409 until the configured condition is True', async () => {
    const url = await start({ finalizeWhenCondition: 'CleanedUp' });
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ formFactor: 'deployment', phase: 'finalize', object: instance }),
    });
    expect([response.status, await response.json()]).toEqual([
      409,
      { message: 'waiting for condition CleanedUp', permanent: false, continue: false },
    ]);
    const notYet = withStatus({ conditions: [{ type: 'CleanedUp', status: 'False' }] });
    expect(await client?.call(call(url, 'finalize', { object: notYet }))).toEqual({
      ok: false,
      message: 'finalize hook: HTTP 409: waiting for condition CleanedUp',
      outcome: 'error-answer',
      permanent: false,
      continue: false,
      transient: true,
      status: 409,
    });
    const done = withStatus({ conditions: [readyUnknown, { type: 'CleanedUp', status: 'True' }] });
    expect(await client?.call(call(url, 'finalize', { object: done }))).toEqual({ ok: true });
  });
});

describe('createExampleHook', () => {
  it('serves on the given host and path, in the object formFactor format when asked', async () => {
    const url = await start({ path: '/example', formFactorFormat: 'object' });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/example$/);
    const objectClient = createHookClient({ formFactorFormat: 'object' });
    try {
      expect(await objectClient.call(call(url, 'finalize'))).toEqual({ ok: true });
    } finally {
      objectClient.close();
    }
    expect((await fetch(url.replace('/example', '/'), { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
