/**
 * Everything an instance reconcile needs to know about its registration, resolved once per
 * registration generation by the registration controller (docs/spec/registration.md §6.2: a new value is a
 * reconfiguration, and every instance is reconciled again).
 */
import type { FormFactorPlugin, GroupVersionKind } from '@scoby/formfactor';
import type { NormalizedRegistrationSpec } from '@scoby/registration';
import type { CrdInfo } from '../crd/inspect.ts';
import type { ResourceRef, WriteVerb } from '@scoby/controller-runtime';

/**
 * Where the registration's hook answers: its resolved URL and timeout. What it is called for is the
 * registration's spec.hook.capabilities (plan/instance-target.ts).
 */
export interface HookEndpoint {
  url: string;
  timeoutMs: number;
}

/**
 * The verb each instance write uses, as the registration's access check chose it (the registration's
 * `status.writeVerbs`): absent where the write has no granted verb (or no subject).
 */
export interface WriteVerbs {
  status?: WriteVerb;
  finalizers?: WriteVerb;
}

export interface InstanceConfig {
  registrationName: string;
  registrationUid: string;
  /** Changes whenever the effective configuration changes (un-parks instances, docs/spec/hooks-v1.md §6.3). */
  revision: string;
  spec: NormalizedRegistrationSpec;
  plugin: FormFactorPlugin;
  crd: CrdInfo & { version: string };
  instanceResource: ResourceRef;
  /** Absent when the registration has no hook or its address is unresolved. */
  hook?: HookEndpoint;
  /**
   * The verbs granted for status and finalizer writes (docs/spec/registration.md §7); absent
   * finalizers: neither granted, a leftover finalizer is removed with `patch` (and refused).
   */
  writeVerbs: WriteVerbs;
  /** Managed kinds of every available form factor (pruning, docs/spec/children-and-status.md §6). */
  prunableKinds: GroupVersionKind[];
  /** Condition types of the instance condition set, Ready included (§8.1). */
  conditionTypes: string[];
  /** conditionsFromHook types in the set (only with a pre-reconcile hook). */
  hookConditionTypes: string[];
}
