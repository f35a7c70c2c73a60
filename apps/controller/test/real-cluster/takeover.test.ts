/**
 * On kube-apiserver, with the controller as Scoby's ServiceAccount: an instance whose children are named
 * like another team's Deployment and Service never writes to them (docs/spec/children-and-status.md §5.1), and
 * deleting the instance leaves them to their owners.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor } from '../support/cluster.ts';
import { hookedRegistration, registrationReady } from '../support/hooks-fixtures.ts';
import { conditionOf } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { REAL_COLLECT_MS, startRealCluster, type RealCluster } from './support/real-cluster.ts';

const API = 'notify.real.example.com/v1';
let cluster: RealCluster;

beforeAll(async () => {
  cluster = startRealCluster();
  await cluster.apply(crdFor({ group: 'notify.real.example.com', kind: 'Mailer', plural: 'mailers' }));
  await cluster.apply(registeredKindRole('notify.real.example.com', 'mailers'));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  await cluster.apply(hookedRegistration('mailer', 'mailers.notify.real.example.com'));
  await registrationReady(cluster, 'mailer');
});
afterAll(() => cluster?.stop());

const PAYMENTS = { app: 'payments' };

const victims: KubeObject[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'mailer-payments', namespace: 'shop', labels: PAYMENTS },
    spec: {
      replicas: 3,
      selector: { matchLabels: PAYMENTS },
      template: {
        metadata: { labels: PAYMENTS },
        spec: { containers: [{ name: 'payments', image: 'registry.example.com/payments:7.1' }] },
      },
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'mailer-payments', namespace: 'shop', labels: PAYMENTS },
    spec: { selector: PAYMENTS, ports: [{ port: 443, targetPort: 8443, protocol: 'TCP' }] },
  },
];

function stored(): Promise<(KubeObject | undefined)[]> {
  return Promise.all(victims.map((v) => cluster.get(v.apiVersion, v.kind, 'shop', v.metadata.name ?? '')));
}

describe('on the real control plane, an instance whose children are named like objects of another team', () => {
  it('writes nothing to them, reports ApplyFailed, and deleting the instance leaves them in place', async () => {
    for (const victim of victims) await cluster.apply(victim);
    // Settled: three replicas available, so nothing but a writer can change them now.
    await cluster.waitFor('the other team’s Deployment available', async () => {
      const deployment = await cluster.get('apps/v1', 'Deployment', 'shop', 'mailer-payments');
      return (deployment?.status as { availableReplicas?: number } | undefined)?.availableReplicas === 3;
    });
    const before = await stored();

    await cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'payments', namespace: 'shop' },
      spec: {},
    });
    const message =
      'Deployment "shop/mailer-payments" exists and is not controlled by Mailer "payments"; ' +
      'Service "shop/mailer-payments" exists and is not controlled by Mailer "payments"';
    await cluster.waitFor('Mailer payments Ready=False/ApplyFailed', async () => {
      const ready = conditionOf(await cluster.get(API, 'Mailer', 'shop', 'payments'), 'Ready');
      return ready?.status === 'False' && ready.reason === 'ApplyFailed' && ready.message === message;
    });
    // Whole objects, resourceVersion and managedFields included: no write reached them.
    expect(await stored()).toEqual(before);

    await cluster.remove({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'payments', namespace: 'shop' },
    });
    // A control instance shows the garbage collector has run since.
    await cluster.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'control', namespace: 'shop' },
      spec: {},
    });
    await cluster.waitFor('the control instance’s Deployment', () =>
      cluster.get('apps/v1', 'Deployment', 'shop', 'mailer-control'),
    );
    await cluster.remove({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'control', namespace: 'shop' },
    });
    await cluster.waitFor(
      'the control instance’s Deployment collected',
      async () => (await cluster.get('apps/v1', 'Deployment', 'shop', 'mailer-control')) === undefined,
      REAL_COLLECT_MS,
    );
    expect(await stored()).toEqual(before);
  });
});
