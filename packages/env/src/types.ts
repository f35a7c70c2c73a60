import type { EnvVar, KubeObject, Volume, VolumeMount } from '@scoby/kube-objects';
import type { NormalizedParameterConfiguration } from '@scoby/registration';

/** What rendering reads from an instance: its namespace and `spec` (docs/spec/env.md intro). */
export type RenderInstance = Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata' | 'spec'>;

export interface RenderInput {
  instance: RenderInstance;
  /**
   * Validated configuration, paths as written. Treated as immutable: its compiled form is cached by
   * object identity, so a changed configuration must be a new object.
   */
  config: NormalizedParameterConfiguration;
}

export type AddressResolution = { ok: true; url: string } | { ok: false; message: string };

export interface RenderLookups {
  /** Resolves a destination (address.md); `ref.namespace` is already filled in by rendering. */
  resolveAddress(destination: Record<string, unknown>, namespace: string): Promise<AddressResolution>;
  /** `data` of a ConfigMap in Scoby's namespace, from a cache; undefined when it does not exist. */
  controllerConfigMap(name: string): Record<string, string> | undefined;
  /** Scoby's own namespace (`SCOBY_NAMESPACE`), used in messages. */
  controllerNamespace: string;
}

export interface EnvNameCollision {
  reason: 'EnvNameCollision';
  message: string;
}

export interface RenderResult {
  /**
   * Sorted by name in byte order, except that a variable whose value refers to another with `$(NAME)`
   * comes after it (docs/spec/env.md §8).
   */
  env: EnvVar[];
  /** Sorted by volume name in byte order. */
  volumes: Volume[];
  /** Sorted by volume name in byte order. */
  volumeMounts: VolumeMount[];
  /**
   * Normalised spec path → the literal value rendered from it, collision losers included; keys in byte
   * order. Computed on first access (only statusConfiguration.add needs it), then a plain property.
   */
  sourceMap: Record<string, string>;
  warnings: EnvNameCollision[];
  /** Render errors in docs/spec/env.md §9 order; non-empty means the render failed. */
  errors: string[];
  /**
   * True when there are errors and every one comes from the instance's spec or the registration
   * (docs/spec/env.md §9): rendering again gives the same errors until one of those changes.
   */
  needsSpecChange: boolean;
}
