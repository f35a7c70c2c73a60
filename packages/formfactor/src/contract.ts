/**
 * The form-factor plugin contract (docs/spec/children-and-status.md §11). The built-in form factors implement it
 * too, so the controller treats every form factor alike. A plugin is pure: it describes and computes,
 * Scoby performs every write.
 */
import type { JsonObject, KubeObject, OwnerReference, RenderedContainer } from '@scoby/kube-objects';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** One form-factor condition as computed from the observed children; Scoby adds lastTransitionTime. */
export interface ConditionResult {
  status: ConditionStatus;
  reason: string;
  message: string;
}

/**
 * status.address.url as the form factor reports it: a URL, `none` (no URL yet: the field is removed)
 * or `unmanaged` (the field is left as it is, a hook may set it).
 */
export type AddressResult = { kind: 'url'; url: string } | { kind: 'none' } | { kind: 'unmanaged' };

export interface GroupVersionKind {
  apiVersion: string;
  kind: string;
}

/** The instance a form factor renders for; apiVersion is `<group>/<chosen version>`. */
export interface InstanceIdentity {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/** The standard name, labels and owner reference of children (§4), computed by Scoby. */
export interface StandardChildMeta {
  /** §4.1: valid for every kind (a DNS-1035 label of at most 63 characters). */
  name: string;
  /**
   * For kinds whose names are DNS-1123 subdomains: `<registration>-<instance>` unchanged (dots and up
   * to 253 characters), as Go Scoby named them, when valid; otherwise `name`.
   */
  subdomainName: string;
  /** The five labels of §4.2. */
  labels: Record<string, string>;
  /** The three labels of §4.2 used in selectors and pod templates. */
  selectorLabels: Record<string, string>;
  /** §4.3 */
  ownerReference: OwnerReference;
}

export interface RenderInput<Block = unknown> {
  /** The validated block with the schema's defaults applied. */
  block: Block;
  registration: { name: string; image: string };
  instance: InstanceIdentity;
  /** Rendered env, volumes and mounts (env.md). */
  container: RenderedContainer;
  standard: StandardChildMeta;
  /** The adapter container of §3.4. */
  adapterContainer: JsonObject;
  /** `{volumes (omitted when empty), containers: [adapterContainer]}`, ready for a pod template. */
  podSpec: JsonObject;
}

export interface StatusInput<Block = unknown> {
  block: Block;
  /** The final children map, normalised (§4.4): namespace, labels and owner reference are set. */
  children: Record<string, KubeObject>;
  /** The children as read back from the cluster, by the same keys; undefined when not found. */
  observed: Record<string, KubeObject | undefined>;
  /**
   * The Pods of an observed Deployment that is not available, by its key, when the controller could
   * read them (docs/spec/children-and-status.md §8.3); absent otherwise.
   */
  pods?: Record<string, readonly KubeObject[]>;
  /** docs/spec/address.md §3 */
  clusterDomain: string;
}

export interface FormFactorStatus {
  /** One entry per active condition type (see `conditionTypesFor`). */
  conditions: Record<string, ConditionResult>;
  address: AddressResult;
}

export interface FormFactorPlugin<Block = unknown> {
  /** The key under spec.workload.formFactor that selects this form factor. */
  name: string;
  /** The formFactor string sent to hooks; defaults to `name`. Only built-ins may differ (`ksvc`). */
  hookName?: string;
  /** JSON Schema (draft-07) of the block; its `default`s are applied to Scoby's working copy. */
  blockSchema: JsonObject;
  /**
   * Messages replacing the validator's for a field, keyed by the field's path inside the block
   * (`service.port`, `items[0].name`), so a form factor can word its rules as the spec does.
   */
  fieldMessages?: Record<string, string>;
  /** Group/versions the cluster must serve, e.g. `serving.knative.dev/v1`. */
  requiredApis: string[];
  /** Every apiVersion/kind the form factor may produce: watched, pruned and accepted from hooks. */
  managedKinds: GroupVersionKind[];
  /** Every condition type the form factor may report. */
  conditionTypes: string[];
  /** The condition types reported for this block, when that depends on it; default all. */
  conditionTypesFor?(block: Block): string[];
  /** Deterministic: the same input always gives the same children map `key → object`. */
  render(input: RenderInput<Block>): Record<string, KubeObject>;
  status(input: StatusInput<Block>): FormFactorStatus;
  /**
   * The fields of an observed child, besides its metadata, that `status` reads, top-level or as dotted paths (e.g.
   * `['status']`). The controller's caches then hold only those of its managed kinds (§5.2);
   * without it they hold every child of its managed kinds whole.
   */
  observedFields?: string[];
}
