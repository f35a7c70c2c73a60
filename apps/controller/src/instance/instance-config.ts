/**
 * Everything an instance reconcile needs to know about its registration, resolved once per
 * registration generation by the registration controller (docs/spec/registration.md §6.2: a new value is a
 * reconfiguration, and every instance is reconciled again).
 */
import type { FormFactorPlugin, GroupVersionKind } from '@scoby/formfactor';
import type { NormalizedRegistrationSpec } from '@scoby/registration';
import type { CrdInfo } from '../crd/inspect.ts';
import type { ResourceRef } from '@scoby/controller-runtime';
import type { WriteVerbs } from '../registration/access/write-verbs.ts';

export interface HookTarget {
  url: string;
  timeoutMs: number;
  preReconcile: boolean;
  finalize: boolean;
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
  hook?: HookTarget;
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
