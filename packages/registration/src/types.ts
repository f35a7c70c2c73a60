/**
 * CRDRegistration v1alpha1 (registration.md). These are the shapes as written by users, including the
 * legacy aliases. `NormalizedRegistrationSpec` (see normalize) is what the rest of Scoby consumes.
 *
 * NOTE for maintainers: the JSON Schema in schema.ts is the source of truth; these types must stay in
 * step with it (a test checks that).
 */
import type { Condition, KubeObject } from '@scoby/kube-objects';

export const GROUP = 'scoby.triggermesh.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'CRDRegistration';
export const FINALIZER = 'scoby.triggermesh.io/finalizer';

export interface SelectorRef {
  name: string;
  key: string;
  optional?: boolean;
}

export interface FromSpecToEnv {
  path: string;
  name?: string;
  default?: { value?: string; configMap?: SelectorRef; secret?: SelectorRef };
  /** Legacy alias of default.value. */
  defaultValue?: string;
  valueFrom?: {
    configMapPath?: { name: string; key: string; optional?: boolean };
    secretPath?: { name: string; key: string; optional?: boolean };
    builtInFunc?: { name: string; args?: string[] };
  };
}

export interface VolumeItem {
  key: string;
  path: string;
  mode?: number;
}

export interface MountFrom {
  configMapPath?: { name: string; items?: VolumeItem[]; defaultMode?: number; optional?: boolean };
  secretPath?: { secretName: string; items?: VolumeItem[]; defaultMode?: number; optional?: boolean };
}

export interface FromSpecToVolume {
  path: string;
  name: string;
  mountPath: string;
  mountFrom: MountFrom;
}

export interface AddToEnv {
  name: string;
  value?: string;
  valueFrom?: {
    field?: { fieldPath: string; apiVersion?: string };
    /** Legacy alias of field. */
    fieldRef?: { fieldPath: string; apiVersion?: string };
    configMap?: SelectorRef;
    secret?: SelectorRef;
  };
  valueFromControllerConfigMap?: SelectorRef;
}

export interface AddToVolume {
  name: string;
  mountPath: string;
  mountFrom: MountFrom;
}

export interface ParameterConfiguration {
  global?: { defaultPrefix?: string };
  fromSpec?: {
    skip?: { path: string }[];
    toEnv?: FromSpecToEnv[];
    toVolume?: FromSpecToVolume[];
  };
  add?: {
    toEnv?: AddToEnv[];
    toVolume?: AddToVolume[];
  };
}

export interface StatusConfiguration {
  add?: { path: string; valueFrom: { path: string } }[];
  conditionsFromHook?: { type: string }[];
}

export interface DeploymentFormFactor {
  replicas?: number;
  service?: { port: number; targetPort: number };
}

export interface KnativeServiceFormFactor {
  minScale?: number;
  maxScale?: number;
  visibility?: string;
}

export interface FormFactorBlock {
  deployment?: DeploymentFormFactor | null;
  knativeService?: KnativeServiceFormFactor | null;
  /** Plugin form factors, configured under their own key. */
  [plugin: string]: unknown;
}

export interface Destination {
  ref?: { apiVersion?: string; kind?: string; name?: string; namespace?: string };
  uri?: string;
}

export type HookCapability = 'pre-reconcile' | 'finalize';

export interface HookSpec {
  version: string | number;
  address: Destination;
  timeout?: string;
  capabilities?: string[];
}

export interface CRDRegistrationSpec {
  crd: string;
  workload: {
    fromImage: { repo: string };
    formFactor?: FormFactorBlock;
    parameterConfiguration?: ParameterConfiguration;
    statusConfiguration?: StatusConfiguration;
  };
  hook?: HookSpec;
}

export interface CRDRegistrationStatus {
  observedGeneration?: number;
  annotations?: Record<string, string>;
  conditions?: Condition[];
}

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
  address: Destination;
  /** spec.hook.timeout in milliseconds (default 15 000). */
  timeoutMs: number;
  /** De-duplicated, `finalization` mapped to `finalize`, in first-seen order. */
  capabilities: HookCapability[];
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
}

/* ---------- What validation needs to know about form factors (injected by the form-factor registry). ---------- */

/** A registration problem (registration.md §4): the message starts with the full field path. */
export interface Problem {
  path: string;
  reason: string;
  message: string;
}

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
