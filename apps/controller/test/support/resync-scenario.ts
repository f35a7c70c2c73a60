/**
 * spec.resyncPeriod (docs/spec/registration.md §6.9), run alike on the in-memory server and on the
 * real control plane: each instance is reconciled again every period, which calls its hook and
 * writes nothing while nothing changed; what changed outside the cluster (the hook's answer) is
 * written at the next resync, with no event of the cluster; a parked instance stays parked.
 */
import { expect } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/process/options.ts';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { countsSince, hookedRegistration, instanceWhere, requestsByMethod } from './hooks-fixtures.ts';
import { errorReply, type HookRequestRecord, type ScriptedHook } from './hooks-server.ts';
import { conditionOf, namespaceObject, registrationTarget, sleep, waitForCondition } from './scoby.ts';

export const GROUP = 'lamps.example.com';
export const API = `${GROUP}/v1`;
export const KIND = 'Lantern';
export const PLURAL = 'lanterns';
export const NAMESPACE = 'harbour';
export const REGISTRATION = 'lanterns';
export const RESYNC_PERIOD = 'PT30S';
export const RESYNC_PERIOD_MS = 30_000;

/** What only the hook knows: the colour it reports in status, and the instances it refuses for good. */
export interface HookWorld {
  colour: string;
  refused: Set<string>;
}

/** The hook of the scenario: reports `world.colour` in status.colour; refuses `world.refused` (permanent). */
export function worldHook(world: HookWorld): (request: HookRequestRecord) => ReturnType<typeof errorReply> {
  return (request) => {
    if (world.refused.has(request.body.object.metadata.name ?? ''))
      return errorReply(422, { message: 'no lamp oil', permanent: true });
    const status = request.body.object.status ?? {};
    return {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: { object: { status: { ...status, colour: world.colour } } },
    };
  };
}

/** CRD, namespace and the registration reconciling every instance each RESYNC_PERIOD; the role is the caller's. */
export async function registerLanterns(cluster: ClusterVerbs, hook: ScriptedHook): Promise<void> {
  await cluster.apply(namespaceObject(NAMESPACE));
  await cluster.apply(crdFor({ group: GROUP, kind: KIND, plural: PLURAL }));
  await cluster.waitFor(
    'the CRD served',
    async () => (await cluster.client.resourceFor(API, KIND)) !== undefined,
  );
  const registration = hookedRegistration(REGISTRATION, `${PLURAL}.${GROUP}`, {
    hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
  });
  (registration.spec as Record<string, unknown>).resyncPeriod = RESYNC_PERIOD;
  await cluster.apply(registration);
  await waitForCondition(cluster, registrationTarget(REGISTRATION), 'Ready', 'True');
}

export const lanternWhere = (
  cluster: ClusterVerbs,
  name: string,
  description: string,
  probe: (object: KubeObject) => boolean,
  timeoutMs?: number,
): Promise<KubeObject> => instanceWhere(cluster, API, KIND, NAMESPACE, name, description, probe, timeoutMs);

const colourOf = (object: KubeObject): unknown => (object.status as { colour?: unknown } | undefined)?.colour;

export interface ResyncFigures {
  /** Hook calls for the steady instance over the window. */
  steadyCalls: number;
  /** Hook calls for the parked instance over the window. */
  parkedCalls: number;
  /** The controller's API requests (by method, the ones sent only) over the window. */
  requests: Record<string, number>;
  /**
   * The two instances' resourceVersions and the uids of their namespace's Deployments and Services,
   * before and after the window: what a write of this registration would have changed, whatever
   * else the process wrote meanwhile.
   */
  written: { before: string; after: string };
}

/** What a write of the registration would change: instance versions, children's identities. */
async function writtenState(cluster: ClusterVerbs): Promise<string> {
  const instances = await Promise.all(
    ['lit', 'dark'].map(
      async (name) => (await cluster.get(API, KIND, NAMESPACE, name))?.metadata.resourceVersion,
    ),
  );
  const children: string[] = [];
  for (const [apiVersion, kind] of [
    ['apps/v1', 'Deployment'],
    ['v1', 'Service'],
  ] as const) {
    for (const child of await cluster.list(apiVersion, kind, NAMESPACE))
      children.push(`${kind}/${child.metadata.name}=${child.metadata.uid}`);
  }
  return JSON.stringify({ instances, children: children.sort() });
}

/**
 * A Ready instance `lit` and a parked one `dark`, then a window of `periods` resync periods of
 * `periodMs` (the period the controller runs, RESYNC_PERIOD divided by its resyncPeriodDivisor):
 * the figures of that window; then the hook's colour changes and the next resync writes it.
 */
export async function resyncWindow(
  cluster: ClusterVerbs,
  controller: RunningProcess,
  hook: ScriptedHook,
  world: HookWorld,
  options: { periodMs: number; periods: number; timeoutMs?: number },
): Promise<ResyncFigures> {
  const { periodMs, periods } = options;
  world.refused.add('dark');
  for (const name of ['lit', 'dark'])
    await cluster.apply({
      apiVersion: API,
      kind: KIND,
      metadata: { name, namespace: NAMESPACE },
      spec: { wick: 1 },
    });
  await lanternWhere(
    cluster,
    'lit',
    'Ready with the hook colour',
    (object) => conditionOf(object, 'Ready')?.status === 'True' && colourOf(object) === world.colour,
    options.timeoutMs,
  );
  await lanternWhere(
    cluster,
    'dark',
    'parked',
    (object) => conditionOf(object, 'Ready')?.reason === 'HookFailed',
  );
  // Past the echoes of the last writes: one resync of `lit` has run since.
  const settled = hook.callsFor('pre-reconcile', 'lit').length;
  await cluster.waitFor(
    'a resync of lit',
    async () => hook.callsFor('pre-reconcile', 'lit').length > settled,
    2 * periodMs + 10_000,
  );

  const writtenBefore = await writtenState(cluster);
  const requestsBefore = await requestsByMethod(controller);
  const steadyBefore = hook.callsFor('pre-reconcile', 'lit').length;
  const parkedBefore = hook.callsFor('pre-reconcile', 'dark').length;
  await sleep(periods * periodMs + periodMs / 5);
  const requestsAfter = await requestsByMethod(controller);
  const figures: ResyncFigures = {
    steadyCalls: hook.callsFor('pre-reconcile', 'lit').length - steadyBefore,
    parkedCalls: hook.callsFor('pre-reconcile', 'dark').length - parkedBefore,
    requests: countsSince(requestsBefore, requestsAfter),
    written: { before: writtenBefore, after: await writtenState(cluster) },
  };

  // Nothing in the cluster changes: only the next resync can bring the hook's new answer.
  world.colour = 'green';
  const changed = await lanternWhere(
    cluster,
    'lit',
    'the new colour',
    (object) => colourOf(object) === 'green',
    periodMs * 1.1 + 10_000,
  );
  expect(conditionOf(changed, 'Ready')?.status).toBe('True');
  return figures;
}
