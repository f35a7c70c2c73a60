/**
 * Every failed reconcile is visible: Ready=False for the current generation (docs/spec/children-and-status.md
 * §8.5, §8.8), a Warning Event (§10), one error line in the log and the reconcile error counter. Also
 * when the failure is the status write itself, or a hook answer Scoby cannot take.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/process/manager.ts';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  eventsOf,
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
  replaceController,
} from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type HookScript, type ScriptedHook } from '../support/hooks-server.ts';
import { type CapturedLogs, captureLogs } from '@scoby/controller-runtime/testing';
import { COMPONENT } from '../../src/config/index.ts';
import { conditionOf, conditionsOf, registrationTarget, waitForCondition } from '../support/scoby.ts';

const API = 'notify.example.com/v1';
const RELAY_API = 'relay.example.com/v1';

let cluster: TestCluster;
let controller: RunningProcess;
let hook: ScriptedHook;
let logs: CapturedLogs;
/** The hook's behaviour per instance name; NO_CHANGE for the others. */
const behaviour = new Map<string, HookScript>();

beforeAll(async () => {
  cluster = await startTestCluster();
  hook = await startScriptedHook((request) =>
    (behaviour.get(request.body.object.metadata.name ?? '') ?? NO_CHANGE)(request),
  );
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  await cluster.apply(crdFor({ group: 'notify.example.com', kind: 'Mailer', plural: 'mailers' }));
  await cluster.apply(crdFor({ group: 'relay.example.com', kind: 'Relay', plural: 'relays' }));
  await cluster.apply(
    hookedRegistration('mailer', 'mailers.notify.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
    }),
  );
  await cluster.apply(
    hookedRegistration('relay', 'relays.relay.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile', 'finalize'] },
    }),
  );
  logs = captureLogs('info', COMPONENT);
  controller = await replaceController(cluster, { logger: logs.logger });
  await registrationReady(cluster, 'mailer');
  await registrationReady(cluster, 'relay');
});
afterAll(async () => {
  await controller.stop();
  await cluster.stop();
  await hook.close();
});
afterEach(() => cluster.server.faults.reset());

const target = (name: string) => ({ apiVersion: API, kind: 'Mailer', namespace: 'shop', name });

function createMailer(name: string): Promise<KubeObject> {
  return cluster.apply({ apiVersion: API, kind: 'Mailer', metadata: { name, namespace: 'shop' }, spec: {} });
}

/** Waits until the instance's Ready is `status` (and `reason`) for its current generation. */
function readyFor(
  name: string,
  status: string,
  reason?: string,
  apiVersion = API,
  kind = 'Mailer',
): Promise<KubeObject> {
  return instanceWhere(
    cluster,
    apiVersion,
    kind,
    'shop',
    name,
    `Ready=${status} for its generation`,
    (object) => {
      const ready = conditionOf(object, 'Ready');
      const observed = (object.status as { observedGeneration?: number } | undefined)?.observedGeneration;
      return (
        ready?.status === status &&
        (reason === undefined || ready.reason === reason) &&
        observed === object.metadata.generation
      );
    },
  );
}

/** A spec change: generation 2, so a stale status would show observedGeneration 1. */
async function changeSpec(name: string): Promise<void> {
  await mergePatch(cluster, target(name), { spec: { replicas: 2 } });
}

async function remove(apiVersion: string, kind: string, name: string): Promise<void> {
  await cluster.remove({ apiVersion, kind, metadata: { name, namespace: 'shop' } });
  await cluster.waitFor(`${kind} ${name} gone`, async () =>
    (await cluster.get(apiVersion, kind, 'shop', name)) === undefined ? true : undefined,
  );
}

function errorLines(instance: string): Record<string, unknown>[] {
  return logs.lines().filter((line) => line.level === 'error' && line.instance === `shop/${instance}`);
}

/** controller_runtime_reconcile_errors_total{controller}. */
async function reconcileErrors(registration: string): Promise<number> {
  const metric = await controller.metrics.registry
    .getSingleMetric('controller_runtime_reconcile_errors_total')
    ?.get();
  return metric?.values.find((value) => value.labels.controller === registration)?.value ?? 0;
}

/** The status merge patches sent for one instance: the request's code and the conditions it carried. */
function statusPatches(name: string, plural = 'mailers', group = 'notify.example.com') {
  return cluster.server.requestLog
    .entries()
    .filter(
      (entry) =>
        entry.method === 'PATCH' &&
        entry.path === `/apis/${group}/v1/namespaces/shop/${plural}/${name}/status`,
    )
    .map((entry) => {
      const status = (entry.body as { status: Record<string, unknown> }).status;
      return {
        code: entry.code,
        status,
        conditions: conditionsOf({ ...(entry.body as KubeObject), status }),
      };
    });
}

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = { next: value };
  return value;
}

describe('a hook answer Scoby cannot take', () => {
  it('shows a status nested 3,000 levels deep as HookFailed for the current generation', async () => {
    await createMailer('deep');
    await readyFor('deep', 'True');
    behaviour.set('deep', (request) => ({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: { object: { status: { ...(request.body.object.status as object), nested: nested(3000) } } },
    }));
    const errorsBefore = await reconcileErrors('mailer');

    await changeSpec('deep');
    const message = 'pre-reconcile hook: invalid response: object.status is nested more than 100 levels deep';
    const failed = await readyFor('deep', 'False', 'HookFailed');
    expect(conditionOf(failed, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'HookFailed',
      message,
    });
    expect(failed.status).not.toHaveProperty('nested');
    expect(
      (await eventsOf(cluster, 'shop', 'deep')).filter((event) => event.reason === 'HookFailed'),
    ).toEqual([{ type: 'Warning', reason: 'HookFailed', message }]);
    expect(errorLines('deep')[0]).toEqual({
      level: 'error',
      time: expect.any(String),
      component: 'scoby-controller',
      registration: 'mailer',
      instance: 'shop/deep',
      kind: 'Mailer',
      reason: 'HookFailed',
      message,
      next: 'retry',
      msg: 'reconcile failed',
    });
    expect(await reconcileErrors('mailer')).toBeGreaterThan(errorsBefore);

    behaviour.delete('deep');
    await readyFor('deep', 'True');
    await remove(API, 'Mailer', 'deep');
  });
});

describe('a status write the API server refuses', () => {
  it.each([
    {
      code: 422,
      message:
        'mailers.notify.example.com "refused-422" is invalid: status: Too long: must have at most 1048576 bytes',
    },
    { code: 413, message: 'Request entity too large: limit is 3145728' },
    { code: 500, message: 'etcdserver: request timed out' },
  ])(
    '($code) leaves Ready=False/StatusWriteFailed for the current generation, not the old Ready=True',
    async ({ code, message }) => {
      const name = `refused-${code}`;
      await createMailer(name);
      await readyFor(name, 'True');
      cluster.server.faults.failNext(
        { verb: 'patch', resource: 'mailers', subresource: 'status', name },
        { code, message },
      );
      cluster.server.requestLog.clear();

      await changeSpec(name);
      await readyFor(name, 'True');
      const [refused, fallback, ...retried] = statusPatches(name);
      expect(refused).toMatchObject({ code, status: { observedGeneration: 2 } });
      // The smallest status saying what happened: Ready and observedGeneration only.
      expect(fallback?.code).toBe(200);
      expect(Object.keys(fallback?.status ?? {})).toEqual(['conditions', 'observedGeneration']);
      expect(fallback?.status.observedGeneration).toBe(2);
      expect(fallback?.conditions).toEqual([
        { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
        { type: 'Ready', status: 'False', reason: 'StatusWriteFailed', message },
        { type: 'Reconciling', status: 'True', reason: 'StatusWriteFailed', message },
        { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
      ]);
      expect(retried.map((patch) => patch.code)).not.toContain(code);
      expect(retried.at(-1)?.conditions.find((condition) => condition.type === 'Ready')?.status).toBe('True');

      expect(
        (await eventsOf(cluster, 'shop', name)).filter((event) => event.reason === 'StatusWriteFailed'),
      ).toEqual([{ type: 'Warning', reason: 'StatusWriteFailed', message }]);
      expect(errorLines(name)).toEqual([
        expect.objectContaining({
          registration: 'mailer',
          kind: 'Mailer',
          reason: 'StatusWriteFailed',
          message,
          statusWriteError: message,
          next: 'retry',
          msg: 'reconcile failed',
        }),
      ]);
      await remove(API, 'Mailer', name);
    },
  );

  it('logs and counts each failed reconcile once while every status write fails', async () => {
    await createMailer('outage');
    await readyFor('outage', 'True');
    // Three reconciles' worth: each tries the status, then the smallest failure status.
    const message = 'etcdserver: leader changed';
    cluster.server.faults.failNext(
      { verb: 'patch', resource: 'mailers', subresource: 'status', name: 'outage' },
      { code: 500, count: 6, message },
    );
    const errorsBefore = await reconcileErrors('mailer');

    await changeSpec('outage');
    await readyFor('outage', 'True');
    const lines = errorLines('outage');
    expect(lines).toEqual(
      Array.from({ length: 3 }, () =>
        expect.objectContaining({
          reason: 'StatusWriteFailed',
          message,
          statusWriteError: `${message}; ${message}`,
          msg: 'reconcile failed',
        }),
      ),
    );
    expect((await reconcileErrors('mailer')) - errorsBefore).toBe(lines.length);
    expect(
      (await eventsOf(cluster, 'shop', 'outage')).filter((event) => event.reason === 'StatusWriteFailed'),
    ).toEqual([{ type: 'Warning', reason: 'StatusWriteFailed', message }]);
    await remove(API, 'Mailer', 'outage');
  });
});

describe('an unexpected failure', () => {
  it('shows as Ready=False/ReconcileFailed with an Event and an error line', async () => {
    const message = 'adding finalizer scoby.triggermesh.io/finalizer failed: etcdserver: request timed out';
    cluster.server.faults.failNext(
      { verb: 'patch', resource: 'relays', name: 'held' },
      { code: 500, message: 'etcdserver: request timed out' },
    );
    await cluster.apply({
      apiVersion: RELAY_API,
      kind: 'Relay',
      metadata: { name: 'held', namespace: 'shop' },
      spec: {},
    });
    await readyFor('held', 'True', undefined, RELAY_API, 'Relay');

    const [failure] = statusPatches('held', 'relays', 'relay.example.com');
    expect(failure?.conditions.find((condition) => condition.type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ReconcileFailed',
      message,
    });
    expect(
      (await eventsOf(cluster, 'shop', 'held')).filter((event) => event.reason === 'ReconcileFailed'),
    ).toEqual([{ type: 'Warning', reason: 'ReconcileFailed', message }]);
    expect(errorLines('held')).toEqual([
      expect.objectContaining({
        registration: 'relay',
        kind: 'Relay',
        reason: 'ReconcileFailed',
        message,
        next: 'retry',
      }),
    ]);
    await remove(RELAY_API, 'Relay', 'held');
  });
});

describe('a failed registration reconcile', () => {
  it('logs an error line naming the registration', async () => {
    await cluster.apply(crdFor({ group: 'pager.example.com', kind: 'Pager', plural: 'pagers' }));
    await cluster.apply(
      hookedRegistration('pager', 'pagers.pager.example.com', {
        hook: {
          address: { ref: { apiVersion: 'v1', kind: 'Service', name: 'pager-hook', namespace: 'shop' } },
          capabilities: ['pre-reconcile'],
        },
      }),
    );
    const message = 'services "pager-hook" not found';
    await waitForCondition(cluster, registrationTarget('pager'), 'Ready', 'False', 'HOOKFAILED');
    await cluster.waitFor('the error line', async () =>
      logs.lines().some((line) => line.registration === 'pager' && line.level === 'error') ? true : undefined,
    );
    expect(logs.lines().filter((line) => line.registration === 'pager' && line.level === 'error')[0]).toEqual(
      {
        level: 'error',
        time: expect.any(String),
        component: 'scoby-controller',
        registration: 'pager',
        message,
        msg: 'registration reconcile failed',
      },
    );
  });
});
