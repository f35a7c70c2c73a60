/**
 * A hook's conditions while the hook cannot be reached (docs/spec/children-and-status.md §8.5,
 * §8.4; docs/spec/hooks-v1.md §6.6), on the in-memory server and on the real control plane: a real
 * HTTP hook sets QuotaChecked=True, then stops; the next call meets ECONNREFUSED and QuotaChecked
 * turns Unknown/HookFailed with the failure, under Fail beside Ready=False/HookFailed, under Ignore
 * beside a Ready the form factor alone makes True.
 */
import { startHookServer, type HookServer } from '@scoby/hooks-v1';
import type { KubeObject } from '@scoby/kube-objects';
import { expect } from 'vitest';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { conditionOf, conditionsOf, namespaceObject } from './scoby.ts';
import { hookedRegistration, instanceWhere, mergePatch, registrationReady } from './hooks-fixtures.ts';

export const GROUP = 'quota.example.com';
const API = `${GROUP}/v1`;
export const NAMESPACE = 'unreachable-hook';
/** The kinds of the two registrations, failurePolicy Fail and Ignore. */
export const KINDS = { Fail: 'Strict', Ignore: 'Lenient' } as const;

export const prepareNamespace = (cluster: ClusterVerbs): Promise<KubeObject> =>
  cluster.apply(namespaceObject(NAMESPACE));

/** A hook that finds every instance within its quota. */
async function quotaHook(hooks: HookServer[]): Promise<HookServer> {
  const hook = await startHookServer({
    path: '/v1',
    preReconcile: (request) => ({
      object: {
        apiVersion: request.object.apiVersion,
        kind: request.object.kind,
        metadata: { name: request.object.metadata.name },
        status: {
          conditions: [
            { type: 'QuotaChecked', status: 'True', reason: 'WithinQuota', message: '120 of 500' },
          ],
        },
      },
    }),
  });
  hooks.push(hook);
  return hook;
}

/** A CRD of kind `kind`, its registration with QuotaChecked from `hook`, and one instance `orders`. */
async function registerQuotaChecked(
  cluster: ClusterVerbs,
  kind: string,
  hook: HookServer,
  failurePolicy: 'Fail' | 'Ignore',
) {
  const plural = `${kind.toLowerCase()}s`;
  await cluster.apply(crdFor({ group: GROUP, kind, plural }));
  await cluster.waitFor(
    'the CRD served',
    async () => (await cluster.client.resourceFor(API, kind)) !== undefined,
  );
  await cluster.apply(
    hookedRegistration(plural, `${plural}.${GROUP}`, {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'], failurePolicy },
      conditionsFromHook: ['QuotaChecked'],
    }),
  );
  await registrationReady(cluster, plural);
  await cluster.apply({
    apiVersion: API,
    kind,
    metadata: { name: 'orders', namespace: NAMESPACE },
    spec: {},
  });
  const instance = (description: string, probe: (object: KubeObject) => boolean) =>
    instanceWhere(cluster, API, kind, NAMESPACE, 'orders', description, probe);
  /** Changes an annotation: a reconcile, and so a hook call, follows. */
  const touch = () =>
    mergePatch(
      cluster,
      { apiVersion: API, kind, namespace: NAMESPACE, name: 'orders' },
      { metadata: { annotations: { touched: 'after-the-hook-stopped' } } },
    );
  return { instance, touch };
}

const CHILDREN_READY = [
  { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
];
const SERVICE_READY = { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' };
const QUOTA_CHECKED = { type: 'QuotaChecked', status: 'True', reason: 'WithinQuota', message: '120 of 500' };
export const refused = (hook: HookServer) =>
  expect.stringMatching(
    new RegExp(
      `^pre-reconcile hook: request to ${hook.url.replaceAll('.', '\\.')} failed: connect ECONNREFUSED `,
    ),
  );

/**
 * An instance of kind `kind` Ready with the hook's QuotaChecked=True (asserted), then its hook
 * stopped and a reconcile triggered; returns the instance once `failed` accepts it.
 */
async function afterTheHookStopped(
  cluster: ClusterVerbs,
  hooks: HookServer[],
  kind: string,
  failurePolicy: 'Fail' | 'Ignore',
  failed: { description: string; probe: (object: KubeObject) => boolean },
): Promise<{ after: KubeObject; hook: HookServer }> {
  const hook = await quotaHook(hooks);
  const { instance, touch } = await registerQuotaChecked(cluster, kind, hook, failurePolicy);
  const before = await instance('Ready', (object) => conditionOf(object, 'Ready')?.status === 'True');
  expect(conditionsOf(before)).toEqual([
    ...CHILDREN_READY,
    QUOTA_CHECKED,
    { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    SERVICE_READY,
  ]);
  await hook.close();
  await touch();
  return { after: await instance(failed.description, failed.probe), hook };
}

/** failurePolicy Fail: Unknown/HookFailed beside Ready=False/HookFailed. */
export async function hookConditionsUnknownUnderFail(
  cluster: ClusterVerbs,
  hooks: HookServer[],
): Promise<void> {
  const { after, hook } = await afterTheHookStopped(cluster, hooks, KINDS.Fail, 'Fail', {
    description: 'Ready=False/HookFailed',
    probe: (object) => conditionOf(object, 'Ready')?.reason === 'HookFailed',
  });
  const message = conditionOf(after, 'Ready')?.message ?? '';
  expect(message).toEqual(refused(hook));
  expect(conditionsOf(after)).toEqual([
    ...CHILDREN_READY,
    { type: 'QuotaChecked', status: 'Unknown', reason: 'HookFailed', message },
    { type: 'Ready', status: 'False', reason: 'HookFailed', message },
    // Retried, not parked: kstatus reads it InProgress (§8.12).
    { type: 'Reconciling', status: 'True', reason: 'HookFailed', message },
    SERVICE_READY,
  ]);
}

/** failurePolicy Ignore: Unknown/HookFailed, left out of a Ready the form factor makes True. */
export async function hookConditionsUnknownUnderIgnore(
  cluster: ClusterVerbs,
  hooks: HookServer[],
): Promise<void> {
  const { after, hook } = await afterTheHookStopped(cluster, hooks, KINDS.Ignore, 'Ignore', {
    description: 'HookSucceeded=False',
    probe: (object) => conditionOf(object, 'HookSucceeded') !== undefined,
  });
  const message = conditionOf(after, 'HookSucceeded')?.message ?? '';
  expect(message).toEqual(refused(hook));
  expect(conditionsOf(after)).toEqual([
    ...CHILDREN_READY,
    { type: 'HookSucceeded', status: 'False', reason: 'HookFailedIgnored', message },
    { type: 'QuotaChecked', status: 'Unknown', reason: 'HookFailed', message },
    { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    SERVICE_READY,
  ]);
}
