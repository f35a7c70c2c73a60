/**
 * Permissions are checked, not assumed: a registration whose controller may not do what it needs says
 * so on its Ready condition and runs nothing; once granted it starts. The answers are kept, so the
 * steady state asks nothing; a 403 has them asked again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  conditionOf,
  namespaceObject,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

let cluster: TestCluster;
const API = 'extensions.triggermesh.io/v1';

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.apply(namespaceObject('shop'));
  await cluster.apply(crdFor({ group: 'extensions.triggermesh.io', kind: 'Kuard', plural: 'kuards' }));
});
afterAll(() => cluster.stop());

const reviews = () =>
  cluster.server.requestLog
    .entries()
    .filter((entry) => entry.path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews');

async function touchRegistration(round: string): Promise<void> {
  await cluster.edit(REGISTRATION, (current) => ({
    ...current,
    metadata: { ...current.metadata, labels: { round } },
  }));
}

const REGISTRATION = registrationTarget('kuard');

describe('a registration whose controller lacks a permission', () => {
  it('is Ready=False naming the verb, the resource and the ClusterRole rules, and starts no controller', async () => {
    // Go Scoby's primer role for kuards grants no write on kuards/status (nor watch on kuards).
    const lift = [
      cluster.server.authorization.deny({ verb: 'watch', resource: 'kuards', subresource: '' }),
      cluster.server.authorization.deny({ verb: 'patch', resource: 'kuards', subresource: 'status' }),
      cluster.server.authorization.deny({ verb: 'update', resource: 'kuards', subresource: 'status' }),
    ];
    await cluster.apply(
      registrationObject('kuard', {
        crd: 'kuards.extensions.triggermesh.io',
        workload: { fromImage: { repo: 'registry.example.com/kuard:1' } },
      }),
    );
    const refused = await waitForCondition(cluster, REGISTRATION, 'Ready', 'False', 'MissingPermissions');
    const message =
      'the controller may not watch kuards.extensions.triggermesh.io (all namespaces), ' +
      'patch or update kuards.extensions.triggermesh.io/status (all namespaces); ' +
      'add to a ClusterRole labelled scoby.triggermesh.io/crdregistration: "true" the rules ' +
      '{apiGroups: ["extensions.triggermesh.io"], resources: [kuards], verbs: [get, list, watch]}, ' +
      '{apiGroups: ["extensions.triggermesh.io"], resources: [kuards/status], verbs: [patch]} ' +
      '(see https://github.com/scoby-ts/scoby/blob/main/docs/migration.md)';
    expect(conditionOf(refused, 'ControllerReady')).toEqual({
      type: 'ControllerReady',
      status: 'False',
      reason: 'MissingPermissions',
      message,
    });
    expect(conditionOf(refused, 'Ready')).toMatchObject({ reason: 'MissingPermissions', message });

    await cluster.apply({
      apiVersion: API,
      kind: 'Kuard',
      metadata: { name: 'one', namespace: 'shop' },
      spec: {},
    });
    await sleep(500);
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'kuard-one')).toBeUndefined();

    for (const grant of lift) grant();
    await touchRegistration('granted');
    await waitForCondition(cluster, REGISTRATION, 'Ready', 'True');
    await cluster.waitFor('the Deployment of kuard one', () =>
      cluster.get('apps/v1', 'Deployment', 'shop', 'kuard-one'),
    );
  });

  it('asks nothing and writes nothing while it stays Ready', async () => {
    await waitForCondition(cluster, REGISTRATION, 'Ready', 'True');
    await sleep(300);
    cluster.server.requestLog.clear();
    await touchRegistration('steady');
    await sleep(500);
    expect(reviews()).toEqual([]);
    expect(writesIn(cluster.server.requestLog.entries())).toEqual([
      { method: 'PUT', path: '/apis/scoby.triggermesh.io/v1alpha1/crdregistrations/kuard' },
    ]);
  });

  it('asks again after a request of the controller gets 403', async () => {
    cluster.server.requestLog.clear();
    cluster.server.faults.failNext({ verb: 'patch', resource: 'deployments' }, { code: 403 });
    const one = { apiVersion: API, kind: 'Kuard', namespace: 'shop', name: 'one' };
    await cluster.edit(one, (current) => ({ ...current, spec: { color: 'blue' } }));
    await cluster.waitFor('SelfSubjectAccessReviews after the 403', async () =>
      reviews().length > 0 ? true : undefined,
    );
    await waitForCondition(cluster, REGISTRATION, 'Ready', 'True');
  });
});
