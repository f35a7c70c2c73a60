/**
 * Instance selection on kube-apiserver (docs/spec/registration.md §3.6, §6.8), with the controller as Scoby's
 * ServiceAccount under the shipped RBAC (Namespaces read for namespaceSelector): a canary registration
 * beside a stable one, an instance moving back and forth with its children, and a relabelled Namespace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor } from '../support/cluster.ts';
import { mergePatch } from '../support/hooks-fixtures.ts';
import {
  adapterOf,
  REGISTRATION_API,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
} from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { REAL_PATIENCE_MS, startRealCluster, type RealCluster } from './support/real-cluster.ts';

const GROUP = 'select.real.example.com';
const API = `${GROUP}/v1`;
/** status.instances of a registration (registration.md §5.1). */
const instancesOf = (registration: KubeObject | undefined) =>
  (registration?.status as { instances?: { served: number; servedByOthers: number } } | undefined)?.instances;

let cluster: RealCluster;

beforeAll(async () => {
  cluster = startRealCluster();
  await cluster.apply(crdFor({ group: GROUP, kind: 'Queue', plural: 'queues' }));
  await cluster.apply(crdFor({ group: GROUP, kind: 'Zone', plural: 'zones' }));
  await cluster.apply(registeredKindRole(GROUP, 'queues'));
  await cluster.apply(registeredKindRole(GROUP, 'zones'));
  for (const [name, labels] of [
    ['select-shop', {}],
    ['select-prod', { env: 'prod' }],
    ['select-dev', {}],
  ] as const)
    await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
});
afterAll(() => cluster?.stop());

const deployment = (namespace: string, name: string) => cluster.get('apps/v1', 'Deployment', namespace, name);
const image = (object: KubeObject | undefined) => adapterOf(object).image;
const instance = (kind: string, namespace: string, name: string, labels: Record<string, string> = {}) => ({
  apiVersion: API,
  kind,
  metadata: { name, namespace, labels },
  spec: {},
});
const counts = async (name: string) =>
  instancesOf(await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, name));

describe('on the real control plane, a canary registration beside a stable one', () => {
  const target = { apiVersion: API, kind: 'Queue', namespace: 'select-shop', name: 'jobs' };

  it('serves labelled instances with the canary image, moves one back and forth with its children, and counts', async () => {
    await cluster.apply(
      registrationObject('select-canary', {
        crd: `queues.${GROUP}`,
        workload: { fromImage: { repo: 'registry.example.com/queue:2-rc' } },
        selector: { matchExpressions: [{ key: 'track', operator: 'In', values: ['canary'] }] },
      }),
    );
    await waitForCondition(
      cluster,
      registrationTarget('select-canary'),
      'Ready',
      'True',
      undefined,
      REAL_PATIENCE_MS,
    );
    // creationTimestamp has whole seconds: the stable one is younger whatever the names.
    await sleep(1100);
    await cluster.apply(
      registrationObject('select-stable', {
        crd: `queues.${GROUP}`,
        workload: { fromImage: { repo: 'registry.example.com/queue:1' } },
      }),
    );
    await waitForCondition(
      cluster,
      registrationTarget('select-stable'),
      'Ready',
      'True',
      undefined,
      REAL_PATIENCE_MS,
    );

    await cluster.apply(instance('Queue', 'select-shop', 'jobs', { track: 'canary' }));
    await cluster.apply(instance('Queue', 'select-shop', 'mail'));
    const canary = await cluster.waitFor('canary child', () =>
      deployment('select-shop', 'select-canary-jobs'),
    );
    expect(image(canary)).toBe('registry.example.com/queue:2-rc');
    const stable = await cluster.waitFor('stable child', () =>
      deployment('select-shop', 'select-stable-mail'),
    );
    expect(image(stable)).toBe('registry.example.com/queue:1');
    expect(await deployment('select-shop', 'select-stable-jobs')).toBeUndefined();
    await cluster.waitFor(
      'counts',
      async () => JSON.stringify(await counts('select-stable')) === '{"served":1,"servedByOthers":1}',
    );
    expect(await counts('select-canary')).toEqual({ served: 1, servedByOthers: 0 });
    const events = await cluster.events('default', 'select-stable');
    expect(
      events.filter((event) => event.reason === 'InstanceServedByOther').map((event) => event.message),
    ).toEqual([
      'instance select-shop/jobs is served by CRDRegistration "select-canary", which is older and selects it too',
    ]);

    for (const [labels, from, to, toImage] of [
      [{ track: null }, 'select-canary-jobs', 'select-stable-jobs', 'registry.example.com/queue:1'],
      [{ track: 'canary' }, 'select-stable-jobs', 'select-canary-jobs', 'registry.example.com/queue:2-rc'],
    ] as const) {
      await mergePatch(cluster, target, { metadata: { labels } });
      const moved = await cluster.waitFor(`${to} created`, () => deployment('select-shop', to));
      expect(image(moved)).toBe(toImage);
      await cluster.waitFor(
        `${from} pruned`,
        async () => (await deployment('select-shop', from)) === undefined,
      );
      await sleep(1500);
      // One writer: the old child stays gone and the new one is not rewritten.
      expect(await deployment('select-shop', from)).toBeUndefined();
      expect((await deployment('select-shop', to))?.metadata.generation).toBe(1);
    }
    await waitForCondition(cluster, target, 'Ready', 'True', undefined, REAL_PATIENCE_MS);
  });
});

describe('on the real control plane, namespaceSelector', () => {
  it('serves instances of selected Namespaces and follows a Namespace relabel', async () => {
    await cluster.apply(
      registrationObject('select-prod-zones', {
        crd: `zones.${GROUP}`,
        workload: { fromImage: { repo: 'registry.example.com/zone:1' } },
        namespaceSelector: { matchLabels: { env: 'prod' } },
      }),
    );
    await waitForCondition(
      cluster,
      registrationTarget('select-prod-zones'),
      'Ready',
      'True',
      undefined,
      REAL_PATIENCE_MS,
    );
    await cluster.apply(instance('Zone', 'select-prod', 'a'));
    await cluster.apply(instance('Zone', 'select-dev', 'b'));
    await cluster.waitFor('prod child', () => deployment('select-prod', 'select-prod-zones-a'));
    await sleep(1500);
    expect(await deployment('select-dev', 'select-prod-zones-b')).toBeUndefined();

    await mergePatch(
      cluster,
      { apiVersion: 'v1', kind: 'Namespace', name: 'select-dev' },
      {
        metadata: { labels: { env: 'prod' } },
      },
    );
    await cluster.waitFor('dev child once dev is selected', () =>
      deployment('select-dev', 'select-prod-zones-b'),
    );
    await cluster.waitFor('counts', async () => (await counts('select-prod-zones'))?.served === 2);
    expect(await counts('select-prod-zones')).toEqual({ served: 2, servedByOthers: 0 });
  });
});
