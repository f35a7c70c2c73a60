/**
 * What one instance reconcile wants on the cluster (docs/spec/children-and-status.md §1 steps 9–11): the
 * final children, and the status to store once they were written and came back as observed, or the
 * stop when writing them failed.
 */
import type { InstanceIdentity } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { conditionSubjects } from '../../status/conditions.ts';
import type { Status } from '../status/instance-status.ts';
import { desiredStatus } from '../status/desired-status.ts';
import { finalChildren } from '../children/final-children.ts';
import type { InstanceTarget } from './instance-target.ts';
import { stopWith, type Stop } from './stop.ts';

export interface DesiredStateInput {
  instance: KubeObject;
  identity: InstanceIdentity;
  target: InstanceTarget;
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
  /** Writing or pruning children failed (§5, §6): `ApplyFailed` with every error, retried. */
  applyFailed(errors: readonly string[]): Stop;
}

export function desiredState(input: DesiredStateInput): DesiredState {
  const { instance, identity, target, working } = input;
  const children = finalChildren(input.children, target.registrationName, identity);
  return {
    identity,
    children,
    statusFor(observed, now, pods) {
      if (!target.features.subresource) return null;
      const verdict = target.plugin.status({
        block: target.spec.formFactor.config,
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
        ...(input.hookFailureIgnored === undefined
          ? {}
          : {
              hookFailureIgnored: {
                message: input.hookFailureIgnored,
                hookConditionTypes: target.hookConditionTypes,
              },
            }),
      });
    },
    applyFailed: (errors) =>
      stopWith(
        instance,
        working,
        target.features,
        { reason: 'ApplyFailed', message: errors.join('; ') },
        { kind: 'retry' },
      ),
  };
}
