/**
 * The registration as one instance's plan needs it: what the controller resolved once per
 * registration generation (instance-config.ts) and what `scoby render` reads from its files, in one
 * shape, so that both plan an instance from the same facts.
 */
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { NormalizedRegistrationSpec } from '@scoby/registration';
import type { StatusFeatures } from '../../crd/inspect.ts';
import { callsHookAt } from '../declared-phases.ts';
import type { ConditionSet } from '../hook-request.ts';
import type { InstanceConfig } from '../instance-config.ts';

export interface InstanceTarget extends Readonly<ConditionSet> {
  registrationName: string;
  spec: NormalizedRegistrationSpec;
  plugin: FormFactorPlugin;
  /** `<group>/<chosen version>` of the registered CRD (docs/spec/children-and-status.md §4.3). */
  instanceApiVersion: string;
  /** What the CRD's version lets the status hold (§7). */
  features: StatusFeatures;
  clusterDomain: string;
}

/** The controller's target: its registration's resolved configuration. */
export function instanceTargetOf(config: InstanceConfig, clusterDomain: string): InstanceTarget {
  return {
    registrationName: config.registrationName,
    spec: config.spec,
    plugin: config.plugin,
    instanceApiVersion: `${config.crd.group}/${config.crd.version}`,
    features: config.crd.status,
    conditionTypes: config.conditionTypes,
    hookConditionTypes: config.hookConditionTypes,
    clusterDomain,
  };
}

/** Scoby's finalizer belongs on every instance while the hook finalizes (docs/spec/hooks-v1.md §7). */
export function wantsFinalizer(target: InstanceTarget): boolean {
  return callsHookAt(target.spec.hook, 'deletion');
}
