/**
 * What a fault did to Scoby's work, judged from the objects alone: which instances have converged
 * on the spec edits made during the fault, which edits were lost, which instances have more than
 * one child of a kind, and which finalizers went without the finalize hook's consent. Pure: the
 * bench (fault-bench.ts) reads the objects and calls these.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { adapterOf, conditionOf } from '../objects.ts';

export const SCOBY_FINALIZER = 'scoby.triggermesh.io/finalizer';
/** The spec field the bench edits; Scoby renders it into the adapter's environment as MESSAGE. */
export const EDITED_FIELD = 'message';
const EDITED_VARIABLE = 'MESSAGE';

export interface InstanceState {
  name: string;
  uid: string;
  generation: number | undefined;
  observedGeneration: number | undefined;
  ready: boolean;
  finalizers: readonly string[];
}

/** A Deployment: whose child it is, the edit it carries, and whether its rollout is complete. */
export interface ChildState {
  name: string;
  controllerUid: string | undefined;
  message: string | undefined;
  rolledOut: boolean;
}

export interface BenchState {
  instances: readonly InstanceState[];
  children: readonly ChildState[];
}

/** Spec edits made during a fault: instance name → the value written to spec.message. */
export type Edits = Readonly<Record<string, string>>;

export function instanceState(object: KubeObject): InstanceState {
  const status = object.status as { observedGeneration?: number } | undefined;
  return {
    name: String(object.metadata.name),
    uid: String(object.metadata.uid),
    generation: object.metadata.generation,
    observedGeneration: status?.observedGeneration,
    ready: conditionOf(object, 'Ready')?.status === 'True',
    finalizers: object.metadata.finalizers ?? [],
  };
}

export function childState(deployment: KubeObject): ChildState {
  const controller = (deployment.metadata.ownerReferences ?? []).find((owner) => owner.controller === true);
  const env = (adapterOf(deployment)?.env ?? []) as { name: string; value?: string }[];
  const spec = deployment.spec as { replicas?: number } | undefined;
  const status = deployment.status as
    | {
        observedGeneration?: number;
        replicas?: number;
        updatedReplicas?: number;
        availableReplicas?: number;
      }
    | undefined;
  const replicas = spec?.replicas ?? 1;
  return {
    name: String(deployment.metadata.name),
    controllerUid: controller?.uid,
    message: env.find((variable) => variable.name === EDITED_VARIABLE)?.value,
    // What `kubectl rollout status` waits for: the new pods available and the old ones gone.
    rolledOut:
      status?.observedGeneration === deployment.metadata.generation &&
      (status?.updatedReplicas ?? 0) === replicas &&
      (status?.replicas ?? 0) === replicas &&
      (status?.availableReplicas ?? 0) === replicas,
  };
}

const childrenOf = (state: BenchState, instance: InstanceState): ChildState[] =>
  state.children.filter((child) => child.controllerUid === instance.uid);

/** The edit reached the child, and the instance's status reports the generation that holds it. */
function carries(state: BenchState, name: string, value: string): boolean {
  const instance = state.instances.find((candidate) => candidate.name === name);
  return (
    instance !== undefined &&
    instance.observedGeneration === instance.generation &&
    childrenOf(state, instance).some((child) => child.message === value)
  );
}

/** Edited instances whose edit is not reflected (yet): never reflected once recovery is over. */
export function lostUpdates(state: BenchState, edits: Edits): string[] {
  return Object.entries(edits)
    .filter(([name, value]) => !carries(state, name, value))
    .map(([name]) => name);
}

/**
 * Edited instances not yet back to normal: the edit reflected, the child's rollout complete and the
 * instance Ready.
 */
export function notConverged(state: BenchState, edits: Edits): string[] {
  return Object.entries(edits)
    .filter(([name, value]) => {
      const instance = state.instances.find((candidate) => candidate.name === name);
      if (instance === undefined || !instance.ready || !carries(state, name, value)) return true;
      return !childrenOf(state, instance).every((child) => child.message === value && child.rolledOut);
    })
    .map(([name]) => name);
}

/** One line per instance controlling more than one Deployment. */
export function duplicateChildren(state: BenchState): string[] {
  return state.instances.flatMap((instance) => {
    const children = childrenOf(state, instance);
    return children.length > 1 ? [`${instance.name}: ${children.map((child) => child.name).join(', ')}`] : [];
  });
}

/**
 * Instances held in deletion whose finalizer is gone (or the instance with it) although the hook
 * never consented to their finalization.
 */
export function unconsentedRemovals(
  state: BenchState,
  held: readonly string[],
  consented: ReadonlySet<string>,
): string[] {
  return held.filter((name) => {
    if (consented.has(name)) return false;
    const instance = state.instances.find((candidate) => candidate.name === name);
    return instance === undefined || !instance.finalizers.includes(SCOBY_FINALIZER);
  });
}

export interface FaultReport {
  fault: string;
  /** From the start of the fault to its end. */
  faultSeconds: number;
  /** From the end of the fault until every edited instance converged; undefined: it did not. */
  recoverySeconds: number | undefined;
  lost: string[];
  duplicates: string[];
  unconsented: string[];
}

export function formatFaultReport(report: FaultReport): string {
  const recovery =
    report.recoverySeconds === undefined
      ? 'no recovery'
      : `recovery ${report.recoverySeconds.toFixed(1)} s after the fault ended`;
  const list = (names: string[]): string =>
    names.length === 0 ? '0' : `${names.length} (${names.join('; ')})`;
  return (
    `fault "${report.fault}" (${report.faultSeconds.toFixed(1)} s): ${recovery}; ` +
    `lost updates ${list(report.lost)}; duplicate children ${list(report.duplicates)}; ` +
    `finalizers removed without the hook's consent ${list(report.unconsented)}`
  );
}
