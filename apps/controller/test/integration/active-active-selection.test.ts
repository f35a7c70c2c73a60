/**
 * Instance selection across active-active replicas (docs/spec/registration.md §6.8, §9.6): a canary
 * and a stable registration of one CRD held by two different replicas. An instance moving between
 * them is pruned from one and created by the other, each replica writing only for the registration it
 * holds: each caches the children of every registration of its registrations' CRDs, and no others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/process/manager.ts';
import {
  crdFor,
  startClusterController,
  startTestCluster,
  type ClusterOptions,
  type TestCluster,
} from '../support/cluster.ts';
import { mergePatch } from '../support/hooks-fixtures.ts';
import {
  adapterOf,
  namespaceObject,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
} from '../support/scoby.ts';

const options = (user: string): ClusterOptions => ({
  user,
  leaderElection: { leaseName: 'scoby-leader', leaseDurationMs: 1000, mode: 'active-active' },
});
const api = 'aa-canary.example.com/v1';
const crd = 'queues.aa-canary.example.com';
const target = (name: string) => ({ apiVersion: api, kind: 'Queue', namespace: 'shop', name });
const instance = (name: string, labels?: Record<string, string>): KubeObject => ({
  apiVersion: api,
  kind: 'Queue',
  metadata: { name, namespace: 'shop', ...(labels ? { labels } : {}) },
  spec: {},
});
const deployment = (name: string) => cluster.get('apps/v1', 'Deployment', 'shop', name);
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true };

let cluster: TestCluster;
let second: RunningProcess;

/** The user of the replica holding `registration`. */
function holderOf(registration: string): string | undefined {
  if (cluster.controller.ownedRegistrations()?.includes(registration)) return 'replica-a';
  if (second.ownedRegistrations()?.includes(registration)) return 'replica-b';
  return undefined;
}

beforeAll(async () => {
  cluster = await startTestCluster(options('replica-a'));
  second = startClusterController(cluster.server, options('replica-b'));
  await cluster.apply(namespaceObject('shop'));
  await cluster.apply(crdFor({ group: 'aa-canary.example.com', kind: 'Queue', plural: 'queues' }));
  // Something of its own on each replica's side: a registration of another CRD, whose children
  // the other registrations' replicas must not cache.
  await cluster.apply(crdFor({ group: 'aa-other.example.com', kind: 'Bell', plural: 'bells' }));
  await cluster.apply(
    registrationObject('canary', {
      crd,
      workload: { fromImage: { repo: 'registry.example.com/queue:2-rc' } },
      selector: { matchLabels: { track: 'canary' } },
    }),
  );
  await cluster.apply(
    registrationObject('stable', { crd, workload: { fromImage: { repo: 'registry.example.com/queue:1' } } }),
  );
  await waitForCondition(cluster, registrationTarget('canary'), 'Ready', 'True');
  await waitForCondition(cluster, registrationTarget('stable'), 'Ready', 'True');
});
afterAll(async () => {
  await second.stop();
  await cluster.stop();
});

describe('a canary and a stable registration held by two replicas', () => {
  it('are held one each', async () => {
    await cluster.waitFor('one registration each', async () => {
      const holders = [holderOf('canary'), holderOf('stable')];
      return holders.every((holder) => holder !== undefined) && holders[0] !== holders[1];
    });
  });

  it('move an instance between them: the new holder’s replica prunes the other’s child', async () => {
    await cluster.apply(instance('jobs', { track: 'canary' }));
    await cluster.waitFor('canary child', () => deployment('canary-jobs'));
    await waitForCondition(cluster, target('jobs'), 'Ready', 'True');
    cluster.server.requestLog.clear();
    await mergePatch(cluster, target('jobs'), { metadata: { labels: { track: null } } });
    const stable = await cluster.waitFor('stable takes jobs', () => deployment('stable-jobs'));
    expect(adapterOf(stable).image).toBe('registry.example.com/queue:1');
    await cluster.waitFor('canary child pruned', async () => (await deployment('canary-jobs')) === undefined);
    await sleep(300);
    const deploymentWrites = cluster.server.requestLog
      .entries()
      .filter((entry) => entry.method !== 'GET' && entry.path.includes('/deployments'))
      .map((entry) => ({ user: entry.user, method: entry.method, path: entry.path }));
    expect(deploymentWrites).toEqual([
      {
        user: holderOf('stable'),
        method: 'DELETE',
        path: '/apis/apps/v1/namespaces/shop/deployments/canary-jobs',
      },
      { user: holderOf('stable'), method: 'POST', path: '/apis/apps/v1/namespaces/shop/deployments' },
    ]);
    await waitForCondition(cluster, target('jobs'), 'Ready', 'True');
  });

  it('cache the children of both registrations of the CRD, and not those of another CRD', async () => {
    await cluster.apply(
      registrationObject('bell', {
        crd: 'bells.aa-other.example.com',
        workload: { fromImage: { repo: 'registry.example.com/bell:1' } },
      }),
    );
    await waitForCondition(cluster, registrationTarget('bell'), 'Ready', 'True');
    await cluster.apply({
      apiVersion: 'aa-other.example.com/v1',
      kind: 'Bell',
      metadata: { name: 'ding', namespace: 'shop' },
      spec: {},
    });
    await cluster.apply(instance('mail'));
    await cluster.waitFor('bell child', () => deployment('bell-ding'));
    await cluster.waitFor('stable child', () => deployment('stable-mail'));
    await sleep(300);
    const bellHolder = holderOf('bell') === 'replica-a' ? cluster.controller : second;
    for (const replica of [cluster.controller, second]) {
      // Both hold a queue registration, so both cache the queues' children.
      expect(replica.cached(DEPLOYMENTS, 'shop', 'stable-mail')).toBeDefined();
      expect(replica.cached(DEPLOYMENTS, 'shop', 'bell-ding') !== undefined).toBe(replica === bellHolder);
    }
  });
});
