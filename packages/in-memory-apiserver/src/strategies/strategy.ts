import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import type { Cause } from '@scoby/structural-schema';

/** What differs per built-in type, like the strategies of the real registry. */
export interface TypeStrategy {
  /** API defaulting, applied to every object written through the API. */
  defaults?(object: KubeObject): KubeObject;
  /** Fields the server sets on create (status, allocated values). */
  prepareForCreate?(object: KubeObject, cluster: Cluster): KubeObject;
  /** What an update changes before it is validated (fields the new type no longer has). */
  beforeUpdateValidation?(next: KubeObject, current: KubeObject): KubeObject;
  /** Server-owned fields an update keeps from the current object. */
  prepareForUpdate?(next: KubeObject, current: KubeObject, cluster: Cluster): KubeObject;
  validate?(object: KubeObject): Cause[];
  /** Checks of an update against the object it replaces (immutable fields), after `validate`. */
  validateUpdate?(next: KubeObject, current: KubeObject): Cause[];
}
