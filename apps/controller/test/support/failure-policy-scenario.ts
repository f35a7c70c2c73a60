/**
 * spec.hook.failurePolicy: Ignore (docs/spec/hooks-v1.md §6.6), run alike on the in-memory server and
 * on the real control plane: a pre-reconcile hook that is unreachable, times out or answers 5xx lets
 * the instance become Ready with HookSucceeded=False beside Ready, a Warning Event and the metric;
 * the condition goes once the hook answers again; a 4xx and a malformed answer keep their meaning;
 * finalize stays gated.
 */
import { expect } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { RunningProcess } from '../../src/process/options.ts';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import {
  countsSince,
  eventsOf,
  hookedRegistration,
  hookFailuresIgnored,
  instanceWhere,
  requestsByMethod,
} from './hooks-fixtures.ts';
import { errorReply, NO_CHANGE, type HookScript, type ScriptedHook } from './hooks-server.ts';
import {
  conditionOf,
  conditionsOf,
  namespaceObject,
  registrationTarget,
  sleep,
  waitForCondition,
} from './scoby.ts';

export const GROUP = 'tolerant.example.com';
export const API = `${GROUP}/v1`;
export const KIND = 'Beacon';
export const PLURAL = 'beacons';
export const NAMESPACE = 'lighthouse';
export const REGISTRATION = 'beacons';

/** Scripts per instance name (default: no change); the hook of a scenario answers with them. */
export function scriptedByName(scripts: Map<string, HookScript>): HookScript {
  return (request) => (scripts.get(request.body.object.metadata.name ?? '') ?? NO_CHANGE)(request);
}

/** CRD, namespace and the registration with failurePolicy Ignore (a 1 s timeout); the role is the caller's. */
export async function registerBeacons(cluster: ClusterVerbs, hook: ScriptedHook): Promise<void> {
  await cluster.apply(namespaceObject(NAMESPACE));
  await cluster.apply(crdFor({ group: GROUP, kind: KIND, plural: PLURAL }));
  await cluster.waitFor(
    'the CRD served',
    async () => (await cluster.client.resourceFor(API, KIND)) !== undefined,
  );
  await cluster.apply(
    hookedRegistration(REGISTRATION, `${PLURAL}.${GROUP}`, {
      hook: {
        address: { uri: hook.url },
        capabilities: ['pre-reconcile', 'finalize'],
        timeout: 'PT1S',
        failurePolicy: 'Ignore',
      },
    }),
  );
  await waitForCondition(cluster, registrationTarget(REGISTRATION), 'Ready', 'True');
}

export const createBeacon = (cluster: ClusterVerbs, name: string): Promise<KubeObject> =>
  cluster.apply({
    apiVersion: API,
    kind: KIND,
    metadata: { name, namespace: NAMESPACE },
    spec: { lamp: 'on' },
  });

const beaconWhere = (
  cluster: ClusterVerbs,
  name: string,
  description: string,
  probe: (object: KubeObject) => boolean,
): Promise<KubeObject> => instanceWhere(cluster, API, KIND, NAMESPACE, name, description, probe);

const READY_CHILDREN = [
  { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
  { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
  { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
];

/**
 * The hook fails as `failing` says for the instance `name`: the instance is Ready with
 * HookSucceeded=False/HookFailedIgnored saying `message`, its children exist, a Warning Event
 * `HookFailedIgnored` and the metric count the failure; once the hook answers, the condition goes
 * with no change of the instance (the ignored call is retried).
 */
export async function ignoredUntilRecovered(
  cluster: ClusterVerbs,
  controller: RunningProcess,
  hook: ScriptedHook,
  scripts: Map<string, HookScript>,
  name: string,
  failing: HookScript,
  message: string,
): Promise<void> {
  const ignoredBefore = await hookFailuresIgnored(controller, REGISTRATION);
  scripts.set(name, failing);
  await createBeacon(cluster, name);
  const ready = await beaconWhere(
    cluster,
    name,
    'Ready=True with HookSucceeded=False',
    (object) =>
      conditionOf(object, 'Ready')?.status === 'True' && conditionOf(object, 'HookSucceeded') !== undefined,
  );
  expect(conditionsOf(ready)).toEqual([
    READY_CHILDREN[0],
    { type: 'HookSucceeded', status: 'False', reason: 'HookFailedIgnored', message },
    ...READY_CHILDREN.slice(1),
  ]);
  expect(ready.metadata.finalizers).toEqual([FINALIZER]);
  expect(await cluster.get('apps/v1', 'Deployment', NAMESPACE, `${REGISTRATION}-${name}`)).toBeDefined();
  expect(await cluster.get('v1', 'Service', NAMESPACE, `${REGISTRATION}-${name}`)).toBeDefined();
  const ignoredEvents = (await eventsOf(cluster, NAMESPACE, name)).filter(
    (event) => event.reason === 'HookFailedIgnored',
  );
  expect(ignoredEvents).toEqual([{ type: 'Warning', reason: 'HookFailedIgnored', message }]);
  expect(await hookFailuresIgnored(controller, REGISTRATION)).toBeGreaterThan(ignoredBefore);

  // The hook is called again while it fails, and the repeated failure writes nothing: not the
  // status (unchanged), not an Event (sent when the message changes).
  const callsBefore = hook.callsFor('pre-reconcile', name).length;
  const requestsBefore = await requestsByMethod(controller);
  await sleep(1_500);
  const writes = Object.entries(countsSince(requestsBefore, await requestsByMethod(controller))).filter(
    ([method]) => method !== 'GET',
  );
  expect(writes).toEqual([]);
  expect(hook.callsFor('pre-reconcile', name).length).toBeGreaterThan(callsBefore);

  scripts.delete(name);
  const recovered = await beaconWhere(cluster, name, 'HookSucceeded gone', (object) => {
    return conditionOf(object, 'HookSucceeded') === undefined;
  });
  expect(conditionsOf(recovered)).toEqual(READY_CHILDREN);
}

/** A hook answer the policy does not cover: Ready=False/HookFailed as under Fail, no HookSucceeded. */
export async function failsAsToday(
  cluster: ClusterVerbs,
  scripts: Map<string, HookScript>,
  name: string,
  failing: HookScript,
  message: string,
  kstatus: 'Reconciling' | 'Stalled',
): Promise<void> {
  scripts.set(name, failing);
  await createBeacon(cluster, name);
  const failed = await beaconWhere(
    cluster,
    name,
    'Ready=False/HookFailed',
    (object) => conditionOf(object, 'Ready')?.reason === 'HookFailed',
  );
  // Parked (permanent) is Stalled, retried is Reconciling (children-and-status.md §8.12); sorted by type.
  expect(conditionsOf(failed)).toEqual(
    [
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      { type: 'Ready', status: 'False', reason: 'HookFailed', message },
      { type: kstatus, status: 'True', reason: 'HookFailed', message },
      { type: 'ServiceReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
    ].sort((a, b) => (a.type < b.type ? -1 : 1)),
  );
  expect(await cluster.get('apps/v1', 'Deployment', NAMESPACE, `${REGISTRATION}-${name}`)).toBeUndefined();
  scripts.delete(name);
}

/** Finalize under Ignore: a 503 keeps the finalizer (Ready=False/HookFailed) until the hook answers. */
export async function finalizeStaysGated(
  cluster: ClusterVerbs,
  scripts: Map<string, HookScript>,
  name: string,
): Promise<void> {
  const instance = await createBeacon(cluster, name);
  await beaconWhere(cluster, name, 'Ready=True', (object) => conditionOf(object, 'Ready')?.status === 'True');
  scripts.set(name, (request) =>
    request.body.phase === 'finalize' ? errorReply(503, { message: 'archive down' }) : { status: 204 },
  );
  await cluster.remove(instance);
  const held = await beaconWhere(
    cluster,
    name,
    'deleting, held by Ready=False/HookFailed',
    (object) =>
      object.metadata.deletionTimestamp !== undefined &&
      conditionOf(object, 'Ready')?.reason === 'HookFailed',
  );
  expect(held.metadata.finalizers).toEqual([FINALIZER]);
  expect(conditionOf(held, 'Ready')?.message).toBe('finalize hook: HTTP 503: archive down');
  scripts.delete(name);
  await cluster.waitFor(
    'the instance gone once the hook answers',
    async () => (await cluster.get(API, KIND, NAMESPACE, name)) === undefined,
  );
}

export interface FailureCase {
  /** The instance's name, and what the case is. */
  name: string;
  failing: HookScript;
  /** The error message, given the hook's URL. */
  message(hookUrl: string): string;
}

/** Failures Ignore goes on without: a 5xx, a reset connection, a hook silent past its 1 s timeout. */
export const IGNORED: readonly FailureCase[] = [
  {
    name: 'server-error',
    failing: () => errorReply(503, { message: 'quota service down' }),
    message: () => 'pre-reconcile hook: HTTP 503: quota service down',
  },
  {
    name: 'unreachable',
    failing: () => 'reset',
    message: (hookUrl) => `pre-reconcile hook: request to ${hookUrl} failed: socket hang up`,
  },
  {
    name: 'silent',
    failing: () => 'hang',
    message: (hookUrl) => `pre-reconcile hook: request to ${hookUrl} timed out after 1s`,
  },
];

/** Answers that keep their meaning under Ignore: a 4xx (permanent here) and a malformed 2xx. */
export const FAILING_AS_TODAY: readonly (FailureCase & { kstatus: 'Reconciling' | 'Stalled' })[] = [
  {
    name: 'refused',
    failing: () => errorReply(422, { message: 'lamp must be off', permanent: true }),
    message: () => 'pre-reconcile hook: HTTP 422: lamp must be off',
    kstatus: 'Stalled',
  },
  {
    name: 'garbled',
    failing: () => ({ status: 200, body: '[1, 2]' }),
    message: () => 'pre-reconcile hook: invalid response: body is not a JSON object',
    kstatus: 'Reconciling',
  },
];
