/**
 * What must hold after a chaos run, checked against the API server's stored objects. The desired
 * children come from the controller's own offline render (what `scoby render` prints) of each stored
 * instance, so "up to date" means what it means to the controller (docs/spec/children-and-status.md §5.2):
 * the same desired-hash, no drift, controlled by the instance.
 */
import { MANAGED_BY_LABEL, MANAGED_BY_VALUE } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { type DynamicClient, isNotFound, type ResourceRef } from '@scoby/controller-runtime';
import { isUpToDate } from '../../src/instance/children/update-detection.ts';
import { objectLookups } from '../../src/cli/render/object-lookups.ts';
import { renderOffline } from '../../src/cli/render/offline-render.ts';
import { builtInFormFactors } from '../../src/process/built-in-form-factors.ts';
import { DEPLOYMENTS, NAMESPACE, SCOBY_NAMESPACE, SERVICES } from '../world.ts';
import { CRDS, REGISTRATIONS, sleep, type Workload } from './cluster.ts';
import type { TrackedInstance } from './churn.ts';
import type { Random } from './random.ts';

export const VIOLATION_KINDS = [
  /** A child controlled by a live instance that its render does not name. */
  'duplicate',
  /** A managed child whose controller owner is gone, or that has none. */
  'orphan',
  'missing-child',
  /** A child that is not up to date with the render of the instance's latest spec. */
  'stale-child',
  /** A status claiming Ready=True for the current generation while a child is not up to date. */
  'half-write',
  /** status.observedGeneration is not metadata.generation, or Ready is not True. */
  'lost-status',
  /** An instance the harness deleted that still exists. */
  'stuck-finalizer',
  /** A write the harness made that the stored instance does not show. */
  'lost-write',
  /** The harness could not render a spec the controller must accept. */
  'render-failed',
] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

export interface Violation {
  kind: ViolationKind;
  object: string;
  detail: string;
  /**
   * What is left for kube-controller-manager (and kwok's pods) rather than Scoby, which the fault bench
   * times apart from Scoby's recovery: `garbage-collector`, a child whose controlling instance is gone
   * (its ownerReference hands its removal to the garbage collector); `workload-controllers`, an
   * instance not Ready for its current generation only because a Deployment it controls has not
   * become available yet (the deployment controller's and the pods' work).
   */
  awaits?: 'garbage-collector' | 'workload-controllers';
  /** Of a lost status: the Deployments its instance controls (namespace/name), to tell a reaction to their change. */
  workloads?: string[];
}

export interface CheckResult {
  violations: Violation[];
  /** Instances allowed to fail (fuzzed specs) that are Ready=False and say why, by reason. */
  refused: Map<string, number>;
  /** Live instances whose every child was checked. */
  converged: number;
  /** The resourceVersion of every Deployment Scoby manages, by namespace/name. */
  deploymentVersions: Map<string, string>;
}

const CHILD_RESOURCES: Record<string, ResourceRef> = { Deployment: DEPLOYMENTS, Service: SERVICES };
const formFactors = builtInFormFactors([]);

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

function readyOf(instance: KubeObject): Condition | undefined {
  const status = instance.status as { conditions?: Condition[] } | undefined;
  return status?.conditions?.find((condition) => condition.type === 'Ready');
}

function observedGeneration(instance: KubeObject): number | undefined {
  return (instance.status as { observedGeneration?: number } | undefined)?.observedGeneration;
}

/** Ready=True for the spec the object holds now. */
function claimsReady(instance: KubeObject): boolean {
  return (
    observedGeneration(instance) === instance.metadata.generation && readyOf(instance)?.status === 'True'
  );
}

/** A Deployment its controller has seen at its generation and reports Available. */
function isAvailable(deployment: KubeObject): boolean {
  const status = deployment.status as
    { observedGeneration?: number; conditions?: Array<{ type?: string; status?: string }> } | undefined;
  return (
    status?.observedGeneration === deployment.metadata.generation &&
    (status?.conditions ?? []).some(
      (condition) => condition.type === 'Available' && condition.status === 'True',
    )
  );
}

function nameOf(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}

function describe(object: KubeObject): string {
  return `${object.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}

function controllerUid(object: KubeObject): string | undefined {
  return object.metadata.ownerReferences?.find((reference) => reference.controller === true)?.uid;
}

/** What the controller would render for instances of one workload: its registration, CRD, ConfigMaps. */
export type Renderer = (instance: KubeObject) => Promise<{ children: KubeObject[] } | { error: string }>;

export async function rendererFor(client: DynamicClient, workload: Workload): Promise<Renderer> {
  const registration = await client.get(REGISTRATIONS, undefined, workload.registration);
  const crdName = `${workload.resource.resource}.${workload.resource.group}`;
  const crd = await client.get(CRDS, undefined, crdName);
  const configMaps = await client.list(
    { group: '', version: 'v1', resource: 'configmaps', namespaced: true },
    SCOBY_NAMESPACE,
  );
  const lookups = objectLookups(
    configMaps.items.map((item) => ({ ...item, apiVersion: 'v1', kind: 'ConfigMap' })),
    { scobyNamespace: SCOBY_NAMESPACE, clusterDomain: 'cluster.local' },
  );
  return async (instance) => {
    const rendered = await renderOffline({
      registration: { ...registration, apiVersion: 'scoby.triggermesh.io/v1alpha1', kind: 'CRDRegistration' },
      instance,
      crd: { ...crd, apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' },
      formFactors,
      lookups,
      clusterDomain: 'cluster.local',
      now: new Date().toISOString(),
    });
    return rendered.ok
      ? { children: Object.values(rendered.output.children) }
      : { error: `${rendered.failure.reason}: ${rendered.failure.message}` };
  };
}

async function renderers(
  client: DynamicClient,
  workloads: readonly Workload[],
): Promise<Map<string, Renderer>> {
  const entries = await Promise.all(
    workloads.map(async (workload) => [workload.kind, await rendererFor(client, workload)] as const),
  );
  return new Map(entries);
}

async function managedChildren(client: DynamicClient): Promise<KubeObject[]> {
  const query = { labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}` };
  const lists = await Promise.all(
    Object.entries(CHILD_RESOURCES).map(async ([kind, resource]) =>
      (await client.list(resource, NAMESPACE, query)).items.map((item) => ({ ...item, kind })),
    ),
  );
  return lists.flat();
}

export async function checkInvariants(
  client: DynamicClient,
  workloads: readonly Workload[],
  tracked: readonly TrackedInstance[],
): Promise<CheckResult> {
  const render = await renderers(client, workloads);
  const stored = new Map<string, KubeObject>();
  for (const workload of workloads) {
    for (const item of (await client.list(workload.resource, NAMESPACE)).items) {
      const instance = { ...item, apiVersion: workload.apiVersion, kind: workload.kind };
      stored.set(`${workload.kind}/${instance.metadata.name ?? ''}`, instance);
    }
  }
  const children = await managedChildren(client);
  const uids = new Set([...stored.values()].map((instance) => instance.metadata.uid));
  const result: CheckResult = {
    violations: [],
    refused: new Map(),
    converged: 0,
    deploymentVersions: new Map(
      children
        .filter((child) => child.kind === 'Deployment')
        .map((child) => [nameOf(child), child.metadata.resourceVersion ?? '']),
    ),
  };
  const violation = (kind: ViolationKind, object: string, detail: string) =>
    result.violations.push({ kind, object, detail });

  for (const child of children) {
    const owner = controllerUid(child);
    if (owner === undefined) violation('orphan', describe(child), 'no controller');
    else if (!uids.has(owner))
      result.violations.push({
        kind: 'orphan',
        object: describe(child),
        detail: `its controller (uid ${owner}) is gone`,
        awaits: 'garbage-collector',
      });
  }
  for (const expected of tracked) {
    const key = `${expected.workload.kind}/${expected.name}`;
    const instance = stored.get(key);
    if (expected.deleted) {
      if (instance) {
        violation(
          'stuck-finalizer',
          key,
          `deleted ${instance.metadata.deletionTimestamp ?? '(no deletionTimestamp)'}, finalizers ${JSON.stringify(instance.metadata.finalizers ?? [])}`,
        );
      }
      continue;
    }
    if (!instance) {
      violation('lost-write', key, 'the instance the harness created does not exist');
      continue;
    }
    const revision = (instance.spec as { revision?: unknown } | undefined)?.revision;
    if (!expected.mayFail && revision !== expected.revision) {
      violation(
        'lost-write',
        key,
        `spec.revision is ${String(revision)}, the harness wrote ${expected.revision}`,
      );
    }
    const ready = readyOf(instance);
    if (expected.mayFail && ready?.status === 'False' && ready.reason && ready.message) {
      if (observedGeneration(instance) === instance.metadata.generation) {
        result.refused.set(ready.reason, (result.refused.get(ready.reason) ?? 0) + 1);
        continue;
      }
    }
    if (!claimsReady(instance)) {
      const uid = instance.metadata.uid;
      const deployments = children.filter(
        (child) => controllerUid(child) === uid && child.kind === 'Deployment',
      );
      const workloadsPending =
        observedGeneration(instance) === instance.metadata.generation &&
        deployments.some((child) => !isAvailable(child));
      result.violations.push({
        kind: 'lost-status',
        object: key,
        detail: `observedGeneration ${String(observedGeneration(instance))} of generation ${String(instance.metadata.generation)}, Ready=${ready?.status ?? 'absent'} ${ready?.reason ?? ''}: ${ready?.message ?? ''}`,
        ...(workloadsPending ? { awaits: 'workload-controllers' as const } : {}),
        ...(deployments.length > 0 ? { workloads: deployments.map(nameOf) } : {}),
      });
    }
    const rendering = await (render.get(expected.workload.kind) as Renderer)(instance);
    if ('error' in rendering) {
      violation('render-failed', key, rendering.error);
      continue;
    }
    const uid = instance.metadata.uid ?? '';
    const owned = children.filter((child) => controllerUid(child) === uid);
    let upToDate = true;
    for (const desired of rendering.children) {
      const existing = owned.find(
        (child) => child.kind === desired.kind && child.metadata.name === desired.metadata.name,
      );
      if (!existing) {
        violation('missing-child', key, `no ${desired.kind} ${desired.metadata.name ?? ''}`);
        upToDate = false;
      } else if (!isUpToDate(existing, desired, uid)) {
        violation(
          claimsReady(instance) ? 'half-write' : 'stale-child',
          describe(existing),
          `not up to date with generation ${String(instance.metadata.generation)} of ${key}`,
        );
        upToDate = false;
      }
    }
    for (const extra of owned.filter(
      (child) =>
        !rendering.children.some(
          (desired) => desired.kind === child.kind && desired.metadata.name === child.metadata.name,
        ),
    )) {
      violation('duplicate', describe(extra), `controlled by ${key}, which renders no such child`);
      upToDate = false;
    }
    if (upToDate) result.converged++;
  }
  return result;
}

export interface Settled extends CheckResult {
  /** From the call until the invariants held (or the patience ran out). */
  seconds: number;
}

/**
 * Checks every `pollMs` until nothing is violated or `patienceMs` has passed; the last result. A
 * check the API server could not answer is made again.
 */
export async function settle(
  client: DynamicClient,
  workloads: readonly Workload[],
  tracked: readonly TrackedInstance[],
  patienceMs: number,
  pollMs = 2_000,
  /** Hears every check that still found violations (the fault bench tells what was pending when). */
  onPending?: (result: CheckResult) => void,
): Promise<Settled> {
  const started = Date.now();
  for (;;) {
    let result: CheckResult;
    try {
      result = await checkInvariants(client, workloads, tracked);
    } catch (error) {
      // An API server that does not answer yet (restarting, its cache initialising) is asked again.
      if (Date.now() - started > patienceMs) throw error;
      await sleep(pollMs);
      continue;
    }
    if (result.violations.length > 0) onPending?.(result);
    const seconds = (Date.now() - started) / 1000;
    if (result.violations.length === 0 || Date.now() - started > patienceMs) return { ...result, seconds };
    await sleep(pollMs);
  }
}

export function countByKind(violations: readonly Violation[]): Record<ViolationKind, number> {
  const counts = Object.fromEntries(VIOLATION_KINDS.map((kind) => [kind, 0])) as Record<
    ViolationKind,
    number
  >;
  for (const { kind } of violations) counts[kind]++;
  return counts;
}

/**
 * Half-writes while the churn runs: for a few instances whose status claims Ready=True for their
 * current generation, every child must be up to date with that generation. The instance is read
 * before and after its children; a change in between (a new spec, a status write) voids the sample.
 * Requests an injected fault fails void it too.
 */
export async function sampleHalfWrites(
  client: DynamicClient,
  workloads: readonly Workload[],
  tracked: readonly TrackedInstance[],
  random: Random,
  size: number,
): Promise<{ sampled: number; violations: Violation[] }> {
  const violations: Violation[] = [];
  let sampled = 0;
  let render: Map<string, Renderer>;
  try {
    render = await renderers(client, workloads);
  } catch {
    return { sampled, violations };
  }
  const candidates = tracked.filter((instance) => !instance.deleted && !instance.mayFail);
  for (let index = 0; index < size && candidates.length > 0; index++) {
    const expected = random.pick(candidates);
    const { resource, kind } = expected.workload;
    try {
      const before = await client.get(resource, NAMESPACE, expected.name);
      if (!claimsReady(before)) continue;
      const rendering = await (render.get(kind) as Renderer)(before);
      if ('error' in rendering) continue;
      const existing = await Promise.all(
        rendering.children.map((desired) =>
          client
            .get(CHILD_RESOURCES[desired.kind] as ResourceRef, NAMESPACE, desired.metadata.name ?? '')
            .catch((error: unknown) => {
              if (isNotFound(error)) return undefined;
              throw error;
            }),
        ),
      );
      const after = await client.get(resource, NAMESPACE, expected.name);
      if (after.metadata.resourceVersion !== before.metadata.resourceVersion) continue;
      sampled++;
      rendering.children.forEach((desired, position) => {
        if (!isUpToDate(existing[position], desired, before.metadata.uid ?? '')) {
          violations.push({
            kind: 'half-write',
            object: `${desired.kind} ${NAMESPACE}/${desired.metadata.name ?? ''}`,
            detail: `${kind}/${expected.name} claims Ready=True for generation ${String(before.metadata.generation)}, this child is ${existing[position] ? 'not up to date' : 'missing'}`,
          });
        }
      });
    } catch {
      continue;
    }
  }
  return { sampled, violations };
}
