/**
 * What one instance reconcile wants on the cluster (docs/spec/children-and-status.md §1 steps 8–11): the
 * final children, and the status to store once they were written and came back as observed. The
 * controller's reconcile and `scoby render` both call this one function, so render prints the status
 * (Ready's message included) the controller writes.
 */
import type { FormFactorPlugin, InstanceIdentity } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import type { StatusFeatures } from '../crd/inspect.ts';
import { conditionSubjects } from '../status/conditions.ts';
import type { FailureReason, Status } from './status/instance-status.ts';
import { desiredStatus } from './status/desired-status.ts';
import { finalChildren, instanceIdentity } from './children/final-children.ts';

/** The registration as the desired state needs it. */
export interface DesiredStateTarget {
  registrationName: string;
  plugin: FormFactorPlugin;
  /** The registration's form factor block (spec.workload.formFactor.<name>). */
  formFactorBlock: unknown;
  /** `<group>/<chosen version>` of the registered CRD (§4.3). */
  instanceApiVersion: string;
  /** Condition types of the instance condition set, Ready included (§8.1). */
  conditionTypes: readonly string[];
  features: StatusFeatures;
  clusterDomain: string;
}

export interface DesiredStateInput {
  instance: KubeObject;
  target: DesiredStateTarget;
  /** The working status after statusConfiguration.add and the hook's answer (§8.10). */
  working: Status;
  /** The children map after rendering and the hook's answer. */
  children: Readonly<Record<string, KubeObject>>;
  /** A pre-reconcile failure the reconcile went on without (docs/spec/hooks-v1.md §6.6): its message. */
  hookFailureIgnored?: string;
}

export interface DesiredState {
  identity: InstanceIdentity;
  /** The final children map (§4.4): what the reconcile writes. */
  children: Record<string, KubeObject>;
  /**
   * The status to store once the children were written and came back as `observed` (by key);
   * null when the CRD has no status subresource.
   */
  statusFor(
    observed: Readonly<Record<string, KubeObject | undefined>>,
    now: string,
    pods?: Readonly<Record<string, readonly KubeObject[]>>,
  ): Status | null;
}

export function desiredState(input: DesiredStateInput): DesiredState {
  const { instance, target, working } = input;
  const identity = instanceIdentity(instance, target.instanceApiVersion);
  const children = finalChildren(input.children, target.registrationName, identity);
  return {
    identity,
    children,
    statusFor(observed, now, pods) {
      if (!target.features.subresource) return null;
      const verdict = target.plugin.status({
        block: target.formFactorBlock,
        children,
        observed,
        ...(pods === undefined ? {} : { pods: { ...pods } }),
        clusterDomain: target.clusterDomain,
      });
      return desiredStatus(working, {
        formFactor: verdict,
        conditionSubjects: conditionSubjects(Object.values(children), target.conditionTypes),
        generation: instance.metadata.generation,
        features: target.features,
        stored: instance.status,
        now,
        ...(input.hookFailureIgnored === undefined ? {} : { hookFailureIgnored: input.hookFailureIgnored }),
      });
    },
  };
}

/** The status a failed reconcile stores (§8.5): Ready=False with the failure; null without a status subresource. */
export function failedStatus(
  instance: KubeObject,
  working: Status,
  failure: { reason: FailureReason; message: string },
  features: StatusFeatures,
  now: string,
): Status | null {
  if (!features.subresource) return null;
  return desiredStatus(working, {
    failure,
    generation: instance.metadata.generation,
    features,
    stored: instance.status,
    now,
  });
}
