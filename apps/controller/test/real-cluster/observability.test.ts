/**
 * On the real control plane, with Scoby's ServiceAccount: the Normal Events of a registration's
 * controller and of the children it creates, and a Ready=False whose message names the Deployment and
 * the condition that block it. A ResourceQuota of zero pods keeps the Deployment unavailable, so
 * kube-controller-manager itself reports Available=False.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor } from '../support/cluster.ts';
import {
  conditionOf,
  eventViews,
  namespaceObject,
  registrationObject,
  registrationTarget,
  waitForCondition,
} from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { startRealCluster, type RealCluster } from './support/real-cluster.ts';

const GROUP = 'obs.real.example.com';
const API = `${GROUP}/v1`;
const DEPLOYMENT = 'Deployment obs-real/greeter-real-hello';
let cluster: RealCluster;

beforeAll(async () => {
  cluster = startRealCluster();
  await cluster.apply(registeredKindRole(GROUP, 'greeters'));
  await cluster.apply(namespaceObject('obs-real'));
  await cluster.apply({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { namespace: 'obs-real', name: 'no-pods' },
    spec: { hard: { pods: '0' } },
  });
  // kube-apiserver enforces a quota only once the quota controller has written its status.hard: a pod
  // created before that is admitted, becomes Ready through kwok, and the instance is rightly Ready=True
  // (CI on a loaded machine saw exactly that).
  await cluster.waitFor('ResourceQuota obs-real/no-pods enforced', async () => {
    const quota = await cluster.get('v1', 'ResourceQuota', 'obs-real', 'no-pods');
    const hard = (quota?.status as { hard?: Record<string, string> } | undefined)?.hard;
    return hard?.['pods'] === '0' ? quota : undefined;
  });
  await cluster.apply(crdFor({ group: GROUP, kind: 'Greeter', plural: 'greeters' }));
  await cluster.apply(
    registrationObject('greeter-real', {
      crd: `greeters.${GROUP}`,
      workload: {
        fromImage: { repo: 'registry.example.com/greeter:1' },
        formFactor: { deployment: { replicas: 1, service: { port: 80, targetPort: 8080 } } },
      },
    }),
  );
  await waitForCondition(cluster, registrationTarget('greeter-real'), 'Ready', 'True');
});
afterAll(() => cluster?.stop());

describe('on the real control plane', () => {
  it('Events say what the controller did, and Ready=False says what blocks', async () => {
    const started = await cluster.waitFor('the ControllerStarted Event', async () => {
      const events = eventViews(await cluster.events('default', 'greeter-real'));
      return events.length > 0 ? events : undefined;
    });
    expect(started).toEqual([
      { type: 'Normal', reason: 'ControllerStarted', message: `started the controller of greeters.${GROUP}` },
    ]);

    await cluster.apply({
      apiVersion: API,
      kind: 'Greeter',
      metadata: { namespace: 'obs-real', name: 'hello' },
    });
    // kube-controller-manager reports the Deployment unavailable first; on a loaded machine that alone
    // can take a while, so it is awaited on its own and a timeout says which side was late.
    await waitForCondition(
      cluster,
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'obs-real', name: 'greeter-real-hello' },
      'Available',
      'False',
    );
    const instance = { apiVersion: API, kind: 'Greeter', namespace: 'obs-real', name: 'hello' };
    const blocked = await waitForCondition(cluster, instance, 'Ready', 'False').catch(async (error) => {
      const ready = conditionOf(await cluster.get(API, 'Greeter', 'obs-real', 'hello'), 'Ready');
      throw new Error(`${String(error)}; the instance's Ready is ${JSON.stringify(ready)}`);
    });
    expect(conditionOf(blocked, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'CONDITIONSNOTOK',
      message: `DeploymentReady=False for ${DEPLOYMENT}: MinimumReplicasUnavailable: Deployment does not have minimum availability.`,
    });
    const created = eventViews(await cluster.events('obs-real', 'hello')).filter(
      (event) => event.type === 'Normal',
    );
    expect(created).toEqual([
      {
        type: 'Normal',
        reason: 'Created',
        message: `created ${DEPLOYMENT}, Service obs-real/greeter-real-hello`,
      },
    ]);
  });
});
