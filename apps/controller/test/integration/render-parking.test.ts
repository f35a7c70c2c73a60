/**
 * Render errors only a spec or registration change can fix park the instance (docs/spec/env.md §9,
 * docs/spec/hooks-v1.md §6.3): one Warning Event and one failed status, then nothing until the spec or
 * the registration changes; errors another object can clear (a controller ConfigMap) are retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  adapterOf,
  configMapObject,
  reconcileCount,
  registerKind,
  registrationObject,
  sleep,
  waitForCondition,
} from '../support/scoby.ts';

const NAMESPACE = 'parking';
const API = 'mail.example.com/v1';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  await registerKind(cluster, {
    namespace: NAMESPACE,
    group: 'mail.example.com',
    kind: 'Mailer',
    plural: 'mailers',
    registration: 'mailer',
  });
  await cluster.apply(
    registrationObject('mailer', {
      crd: 'mailers.mail.example.com',
      workload: {
        fromImage: { repo: 'registry.example.com/mailer:1' },
        parameterConfiguration: {
          fromSpec: {
            toEnv: [
              {
                path: 'spec.credentials',
                name: 'SMTP_PASSWORD',
                valueFrom: {
                  secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.key' },
                },
              },
            ],
          },
        },
      },
    }),
  );
});
afterAll(() => cluster.stop());

/** The Warning Events of `reason` for `name`, counting repeats folded into one Event. */
async function warnings(name: string, reason: string): Promise<number> {
  const events = await cluster.events(NAMESPACE, name);
  return events
    .filter((event) => event.reason === reason && event.type === 'Warning')
    .reduce((sum, event) => sum + Number(event.count ?? 1), 0);
}

const target = (name: string) => ({ apiVersion: API, kind: 'Mailer', namespace: NAMESPACE, name });

describe('render errors that only a spec change can fix', () => {
  it('parks the instance after one Warning Event and converges once the spec is fixed', async () => {
    const reconcilesBefore = await reconcileCount(cluster.controller.metrics, 'mailer');
    await cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'orders', namespace: NAMESPACE },
      spec: { credentials: { secretName: 42, key: 'password' } },
    });
    await waitForCondition(cluster, target('orders'), 'Ready', 'False', 'RenderFailed');
    // Resyncs and the instance's own status write must not bring it back.
    await sleep(5_000);
    expect(await warnings('orders', 'RenderFailed')).toBe(1);
    const reconciles = (await reconcileCount(cluster.controller.metrics, 'mailer')) - reconcilesBefore;
    expect(reconciles).toBeLessThanOrEqual(3);
    expect(await cluster.get('apps/v1', 'Deployment', NAMESPACE, 'mailer-orders')).toBeUndefined();

    await cluster.edit(target('orders'), (current) => ({
      ...current,
      spec: { credentials: { secretName: 'smtp', key: 'password' } },
    }));
    await waitForCondition(cluster, target('orders'), 'Ready', 'True');
    const deployment = await cluster.get('apps/v1', 'Deployment', NAMESPACE, 'mailer-orders');
    expect(adapterOf(deployment).env).toEqual([
      { name: 'SMTP_PASSWORD', valueFrom: { secretKeyRef: { name: 'smtp', key: 'password' } } },
    ]);
  }, 30_000);

  it('tries again when the registration changes', async () => {
    await cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'billing', namespace: NAMESPACE },
      spec: { credentials: { key: 'password' } },
    });
    await waitForCondition(cluster, target('billing'), 'Ready', 'False', 'RenderFailed');
    await sleep(1_000);
    expect(await warnings('billing', 'RenderFailed')).toBe(1);
    // The registration stops reading the reference: the same spec now renders.
    await cluster.apply(
      registrationObject('mailer', {
        crd: 'mailers.mail.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/mailer:1' },
          parameterConfiguration: { fromSpec: { skip: [{ path: 'spec.credentials' }] } },
        },
      }),
    );
    await waitForCondition(cluster, target('billing'), 'Ready', 'True');
  }, 30_000);
});

describe('render errors another object can clear', () => {
  it('keeps retrying a missing controller ConfigMap and converges when it appears', async () => {
    await cluster.apply(
      registrationObject('mailer', {
        crd: 'mailers.mail.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/mailer:1' },
          parameterConfiguration: {
            fromSpec: { skip: [{ path: 'spec.credentials' }] },
            add: {
              toEnv: [{ name: 'FLAGS', valueFromControllerConfigMap: { name: 'mail-flags', key: 'flags' } }],
            },
          },
        },
      }),
    );
    await cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'flags', namespace: NAMESPACE },
      spec: {},
    });
    await waitForCondition(cluster, target('flags'), 'Ready', 'False', 'RenderFailed');
    await cluster.apply(configMapObject('scoby-system', 'mail-flags', { flags: 'beta' }));
    await waitForCondition(cluster, target('flags'), 'Ready', 'True');
    const deployment = await cluster.get('apps/v1', 'Deployment', NAMESPACE, 'mailer-flags');
    expect(adapterOf(deployment).env).toEqual([{ name: 'FLAGS', value: 'beta' }]);
  }, 30_000);
});
