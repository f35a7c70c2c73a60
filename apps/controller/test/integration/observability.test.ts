/**
 * What the controller tells its users, read from the API server and the log: Normal Events
 * and info lines for the children it creates, updates and prunes and for a registration's controller,
 * the message of Ready=False naming the child and condition that block it, and no write at all in a
 * steady state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { type CapturedLogs, captureLogs } from '@scoby/controller-runtime/testing';
import {
  conditionOf,
  eventViews,
  namespaceObject,
  reconcileCount,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

const API = 'obs.example.com/v1';
const HELLO = { apiVersion: API, kind: 'Greeter', namespace: 'obs', name: 'hello' };
const instance = { apiVersion: API, kind: 'Greeter', namespace: 'obs', name: 'hello' };
const DEPLOYMENT = 'Deployment obs/greeter-hello';
const SERVICE = 'Service obs/greeter-hello';

let cluster: TestCluster;
let logs: CapturedLogs;

function registration(withService: boolean): KubeObject {
  return registrationObject('greeter', {
    crd: 'greeters.obs.example.com',
    workload: {
      fromImage: { repo: 'registry.example.com/greeter:1' },
      formFactor: {
        deployment: { replicas: 1, ...(withService ? { service: { port: 80, targetPort: 8080 } } : {}) },
      },
      parameterConfiguration: { fromSpec: { toEnv: [{ path: 'spec.greeting', name: 'GREETING' }] } },
    },
  });
}

/** The Normal Events on the instance, oldest first. */
async function normalEvents(): Promise<{ reason: string; message: string }[]> {
  return eventViews(await cluster.events('obs', 'hello'))
    .filter((event) => event.type === 'Normal')
    .map(({ reason, message }) => ({ reason, message }));
}

function infoLines(msg: string): Record<string, unknown>[] {
  return logs.lines().filter((line) => line.level === 'info' && line.msg === msg);
}

beforeAll(async () => {
  logs = captureLogs('info');
  // No simulated Deployment controller: the test says when the Deployment is (un)available.
  cluster = await startTestCluster({ server: { simulate: { deployments: false } }, logger: logs.logger });
  await cluster.apply(namespaceObject('obs'));
  await cluster.apply(crdFor({ group: 'obs.example.com', kind: 'Greeter', plural: 'greeters' }));
  await cluster.apply(registration(true));
  await waitForCondition(cluster, registrationTarget('greeter'), 'Ready', 'True');
});
afterAll(() => cluster?.stop());

describe('Events and log lines', () => {
  it("announce a registration's controller when it starts", async () => {
    const started = await cluster.waitFor('the ControllerStarted Event', async () => {
      const events = eventViews(await cluster.events('default', 'greeter'));
      return events.length > 0 ? events : undefined;
    });
    expect(started).toEqual([
      {
        type: 'Normal',
        reason: 'ControllerStarted',
        message: 'started the controller of greeters.obs.example.com',
      },
    ]);
    expect(infoLines('registration controller started')).toEqual([
      expect.objectContaining({
        registration: 'greeter',
        crd: 'greeters.obs.example.com',
        version: 'v1',
        formFactor: 'deployment',
      }),
    ]);
  });

  it('announce children created, updated and pruned', async () => {
    await cluster.apply({ ...instanceObject(), spec: { greeting: 'hi' } });
    await cluster.waitFor('both children created', async () => (await normalEvents()).length === 1);
    // One Event for the reconcile that created both children.
    expect(await normalEvents()).toEqual([
      { reason: 'Created', message: `created ${DEPLOYMENT}, ${SERVICE}` },
    ]);
    expect(
      infoLines('child created').map(({ instance, kind, child }) => ({ instance, kind, child })),
    ).toEqual([
      { instance: 'obs/hello', kind: 'Greeter', child: DEPLOYMENT },
      { instance: 'obs/hello', kind: 'Greeter', child: SERVICE },
    ]);

    await cluster.edit(HELLO, (current) => ({ ...current, spec: { greeting: 'hello' } }));
    await cluster.waitFor('the Deployment updated', async () => (await normalEvents()).length === 2);
    expect((await normalEvents())[1]).toEqual({ reason: 'Updated', message: `updated ${DEPLOYMENT}` });
    expect(infoLines('child updated').map(({ child }) => child)).toEqual([DEPLOYMENT]);

    await cluster.apply(registration(false));
    await cluster.waitFor('the Service pruned', async () => (await normalEvents()).length === 3);
    expect((await normalEvents())[2]).toEqual({ reason: 'Pruned', message: `pruned ${SERVICE}` });
    expect(infoLines('child pruned').map(({ child }) => child)).toEqual([SERVICE]);
    expect(infoLines('registration controller reconfigured')).toEqual([
      expect.objectContaining({ registration: 'greeter' }),
    ]);
  });

  it('write nothing in a steady state', async () => {
    const before = await reconcileCount(cluster.controller.metrics, 'greeter');
    await sleep(300);
    cluster.server.requestLog.clear();
    await cluster.edit(HELLO, (current) => ({
      ...current,
      metadata: { ...current.metadata, labels: { touched: 'yes' } },
    }));
    await cluster.waitFor(
      'a reconcile of the touched instance',
      async () => (await reconcileCount(cluster.controller.metrics, 'greeter')) > before,
    );
    await sleep(300);
    expect(writesIn(cluster.server.requestLog.entries())).toEqual([
      { method: 'PUT', path: '/apis/obs.example.com/v1/namespaces/obs/greeters/hello' },
    ]);
  });
});

describe('Ready=False', () => {
  it('names the child and the condition that block it', async () => {
    const deployments = await cluster.client.resourceFor('apps/v1', 'Deployment');
    await cluster.client.patch(
      deployments!,
      'obs',
      'greeter-hello',
      {
        status: {
          conditions: [
            {
              type: 'Available',
              status: 'False',
              reason: 'MinimumReplicasUnavailable',
              message: 'Deployment does not have minimum availability.',
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    const blocked = await waitForCondition(cluster, instance, 'Ready', 'False');
    expect(conditionOf(blocked, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'CONDITIONSNOTOK',
      message: `DeploymentReady=False for ${DEPLOYMENT}: MinimumReplicasUnavailable: Deployment does not have minimum availability.`,
    });
  });
});

function instanceObject(): KubeObject {
  return { apiVersion: API, kind: 'Greeter', metadata: { namespace: 'obs', name: 'hello' } };
}

describe('a deleted registration', () => {
  it('stops its controller and says so', async () => {
    await cluster.remove(registrationObject('greeter', {}));
    await cluster.waitFor('the stop line', async () =>
      infoLines('registration controller stopped').length > 0 ? true : undefined,
    );
    expect(infoLines('registration controller stopped').map(({ registration }) => registration)).toEqual([
      'greeter',
    ]);
  });
});
