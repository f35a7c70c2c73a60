import type { KubeObject } from '@scoby/kube-objects';
import { isJsonMap } from '../json.ts';
import type { TypeStrategy } from './strategy.ts';

/** Namespaces carry the `kubernetes` spec finalizer until the namespace controller empties them. */
export const namespaceStrategy: TypeStrategy = {
  defaults(object: KubeObject): KubeObject {
    const name = object.metadata.name ?? '';
    const spec = isJsonMap(object.spec) ? object.spec : {};
    return {
      ...object,
      metadata: {
        ...object.metadata,
        labels: { ...object.metadata.labels, 'kubernetes.io/metadata.name': name },
      },
      spec: { ...spec, finalizers: Array.isArray(spec.finalizers) ? spec.finalizers : ['kubernetes'] },
    };
  },
  prepareForCreate(object: KubeObject): KubeObject {
    return { ...object, status: { phase: 'Active' } };
  },
  prepareForUpdate(next: KubeObject, current: KubeObject): KubeObject {
    // spec.finalizers only change through the finalize subresource.
    return { ...next, spec: current.spec };
  },
};

export function namespaceTerminating(namespace: KubeObject): boolean {
  return namespace.metadata.deletionTimestamp !== undefined;
}

export function namespaceSpecFinalizers(namespace: KubeObject): unknown[] {
  const spec = namespace.spec;
  return isJsonMap(spec) && Array.isArray(spec.finalizers) ? spec.finalizers : [];
}
