/**
 * CRDRegistration v1alpha1 (registration.md). The shapes as written by users, including the legacy
 * aliases, are generated from the schema (src/schema.ts → src/types.generated.ts).
 * `NormalizedRegistrationSpec` (see validateRegistration) is what the rest of Scoby consumes.
 */
import type { KubeObject } from '@scoby/kube-objects';
import type {
  AddToVolume,
  CRDRegistrationSpec,
  CRDRegistrationStatus,
  Destination,
  FromSpecToEnv,
  FromSpecToVolume,
  SelectorRef,
} from './types.generated.ts';

export const GROUP = 'scoby.triggermesh.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'CRDRegistration';
export const FINALIZER = 'scoby.triggermesh.io/finalizer';

export type {
  AddToEnv,
  AddToVolume,
  CRDRegistrationSpec,
  CRDRegistrationStatus,
  DeploymentFormFactor,
  Destination,
  FormFactorBlock,
  FromSpecToEnv,
  FromSpecToVolume,
  HookSpec,
  KnativeServiceFormFactor,
  MountFrom,
  ParameterConfiguration,
  SelectorRef,
  StatusConfiguration,
  VolumeItem,
} from './types.generated.ts';
import type { LabelSelector } from './label-selector.ts';
import type { HOOK_PHASES } from './hook-capabilities.generated.ts';
import type { Problem } from './validation/problem.ts';

/** A hook phase a registration may declare (hooks-v1's phase table, through its generated copy). */
export type HookCapability = (typeof HOOK_PHASES)[number];

export interface CRDRegistration extends KubeObject {
  spec: CRDRegistrationSpec;
  status?: CRDRegistrationStatus;
}

/* ---------- Normalised form: validated, defaulted, aliases mapped. ---------- */

/** fromSpec.toEnv after defaulting: `defaultValue` folded into `default.value`. */
export type NormalizedFromSpecToEnv = Omit<FromSpecToEnv, 'defaultValue'>;

/** add.toEnv after defaulting: `valueFrom.fieldRef` folded into `valueFrom.field`. */
export interface NormalizedAddToEnv {
  name: string;
  value?: string;
  valueFrom?: {
    field?: { fieldPath: string; apiVersion?: string };
    configMap?: SelectorRef;
    secret?: SelectorRef;
  };
  valueFromControllerConfigMap?: SelectorRef;
}

/** What the env package consumes. Paths are kept as written (env normalises them). */
export interface NormalizedParameterConfiguration {
  global: { defaultPrefix: string };
  fromSpec: {
    skip: { path: string }[];
    toEnv: NormalizedFromSpecToEnv[];
    toVolume: FromSpecToVolume[];
  };
  add: {
    toEnv: NormalizedAddToEnv[];
    toVolume: AddToVolume[];
  };
}

export interface NormalizedHook {
  version: 'v1';
  /** Where an HTTP hook listens; absent for an in-process hook. */
  address?: Destination;
  /** The module of an in-process hook (hooks-v1.md §10); absent for an HTTP hook. */
  module?: string;
  /** spec.hook.timeout in milliseconds (default 15 000). */
  timeoutMs: number;
  /** De-duplicated, `finalization` mapped to `finalize`, in first-seen order. */
  capabilities: HookCapability[];
  /** spec.hook.failurePolicy (default Fail, docs/spec/hooks-v1.md §6.6). */
  failurePolicy: 'Fail' | 'Ignore';
}

export interface NormalizedRegistrationSpec {
  crd: string;
  image: string;
  /** The selected form factor key (`deployment` when none is set) and its block (never null). */
  formFactor: { name: string; config: Record<string, unknown> };
  parameterConfiguration: NormalizedParameterConfiguration;
  statusConfiguration: {
    add: { path: string; valueFrom: { path: string } }[];
    conditionsFromHook: string[];
  };
  hook?: NormalizedHook;
  /** Instance selection (docs/spec/registration.md §3.6), as written; absent selects every instance. */
  selector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  /** spec.resyncPeriod in milliseconds (registration.md §3.7); absent: no periodic reconcile of its own. */
  resyncPeriodMs?: number;
}

/* ---------- What validation needs to know about form factors (injected by the form-factor registry). ---------- */

export interface FormFactorCatalog {
  /** Every available form-factor key (built-ins and plugins). */
  names(): string[];
  /** Problems of the block under `spec.workload.formFactor.<name>`; paths are full field paths. */
  validateBlock(name: string, block: unknown): Problem[];
  /** The block with the plugin schema's defaults applied (Scoby's working copy only). */
  defaultBlock(name: string, block: unknown): Record<string, unknown>;
  /** The condition types the form factor reports (for the conditionsFromHook rule, §3.3). */
  conditionTypes(name: string): string[];
}
