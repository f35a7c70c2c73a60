import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { crdSpec, resourceTypeOfCrd } from '../crd-type.ts';
import { keyOf } from '../resource-type.ts';
import { CRD_CLEANUP_FINALIZER, isEstablished } from '../strategies/crd.ts';
import { deleteAs, deleting, updateAs, withoutFinalizer } from './objects.ts';
import { ReconcileLoop } from './reconcile-loop.ts';

export const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';

/** A terminating CRD first loses its instances (their finalizers still honoured), then its cleanup finalizer. */
function cleanUp(cluster: Cluster): void {
  const crdType = cluster.registry.byKey(CRD_KEY);
  if (crdType === undefined) return;
  for (const crd of cluster.store.list(CRD_KEY)) {
    if (!deleting(crd)) continue;
    const type = resourceTypeOfCrd(crd);
    const key = keyOf(type);
    for (const object of cluster.store.list(key))
      if (!deleting(object)) deleteAs(cluster, { type, object }, 'Background');
    if (cluster.store.list(key).length === 0)
      updateAs(cluster, { type: crdType, object: crd }, withoutFinalizer(crd, CRD_CLEANUP_FINALIZER));
  }
}

/** The names a deleted CRD held are free: the CRDs of its group that wanted them try again. */
function retryNames(cluster: Cluster, group: string): void {
  const crdType = cluster.registry.byKey(CRD_KEY);
  if (crdType === undefined) return;
  for (const crd of cluster.store.list(CRD_KEY)) {
    if (crdSpec(crd).group === group && !isEstablished(crd) && !deleting(crd))
      updateAs(cluster, { type: crdType, object: crd }, crd);
  }
}

/**
 * Serves what the CRDs declare: a CRD's resource is registered as soon as it is stored established
 * (its names accepted; so it is served for the next request) and unregistered, with its watches
 * closed, once the CRD is gone.
 */
export function startCrdController(cluster: Cluster, closeWatches: (key: string) => void): () => void {
  const freedGroups = new Set<string>();
  const loop = new ReconcileLoop(() => {
    cleanUp(cluster);
    for (const group of freedGroups) retryNames(cluster, group);
    freedGroups.clear();
  });
  const terminatingKeys = (): Set<string> =>
    new Set(
      cluster.store
        .list(CRD_KEY)
        .filter(deleting)
        .map((crd: KubeObject) => keyOf(resourceTypeOfCrd(crd))),
    );
  const unsubscribe = cluster.store.subscribe((event) => {
    if (event.key === CRD_KEY) {
      const type = resourceTypeOfCrd(event.object);
      if (event.type === 'DELETED') {
        cluster.registry.remove(keyOf(type));
        closeWatches(keyOf(type));
        freedGroups.add(crdSpec(event.object).group);
        loop.request();
      } else if (deleting(event.object)) loop.request();
      else if (isEstablished(event.object)) cluster.registry.set(type);
      return;
    }
    if (event.type === 'DELETED' && terminatingKeys().has(event.key)) loop.request();
  });
  return () => {
    unsubscribe();
    loop.stop();
  };
}
