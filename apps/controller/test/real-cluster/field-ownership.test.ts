/**
 * On kube-apiserver, field ownership decides what server-side apply may remove. Scoby creates a child
 * with POST (never merging into someone else's object), which records an Update entry; it hands those
 * fields to its Apply entry, so a variable the spec stops setting leaves the Deployment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { registerKind } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { startRealCluster, type RealCluster } from './support/real-cluster.ts';

const API = 'fields.real.example.com/v1';
let cluster: RealCluster;

beforeAll(async () => {
  cluster = startRealCluster();
  // The grant first: the registration is Ready once Scoby may list its instances.
  await cluster.apply(registeredKindRole('fields.real.example.com', 'jobs'));
  const kind = { namespace: 'fields', group: 'fields.real.example.com', kind: 'Job', plural: 'jobs' };
  await registerKind(cluster, { ...kind, registration: 'runner' }, 60_000);
});
afterAll(() => cluster?.stop());

function envOf(deployment: KubeObject | undefined): unknown {
  const spec = deployment?.spec as { template?: { spec?: { containers?: { env?: unknown }[] } } } | undefined;
  return spec?.template?.spec?.containers?.[0]?.env;
}

describe('on the real control plane, a child Scoby created', () => {
  it('loses an environment variable the instance no longer sets, and Scoby owns its fields by apply only', async () => {
    const instance = { apiVersion: API, kind: 'Job', metadata: { name: 'nightly', namespace: 'fields' } };
    await cluster.apply({ ...instance, spec: { queue: 'jobs', retries: 3 } });
    await cluster.waitFor('the Deployment with QUEUE and RETRIES', async () => {
      const env = envOf(await cluster.get('apps/v1', 'Deployment', 'fields', 'runner-nightly'));
      return Array.isArray(env) && env.length === 2;
    });

    // A merge patch, as `kubectl patch`: the controller writes the status meanwhile.
    const jobs = await cluster.client.resourceFor(API, 'Job');
    await cluster.client.patch(jobs!, 'fields', 'nightly', { spec: { retries: null } });
    const deployment = await cluster.waitFor('RETRIES removed', async () => {
      const current = await cluster.get('apps/v1', 'Deployment', 'fields', 'runner-nightly');
      return Array.isArray(envOf(current)) && (envOf(current) as unknown[]).length === 1
        ? current
        : undefined;
    });
    expect(envOf(deployment)).toEqual([{ name: 'QUEUE', value: 'jobs' }]);
    const scobyEntries = (deployment.metadata.managedFields as { manager: string; operation: string }[])
      .filter((entry) => entry.manager === 'scoby-controller')
      .map((entry) => entry.operation);
    expect(scobyEntries).toEqual(['Apply']);
  });
});
