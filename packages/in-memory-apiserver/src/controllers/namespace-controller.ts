import type { Cluster } from '../cluster.ts';
import { isJsonMap } from '../json.ts';
import { released } from '../verbs/commit.ts';
import { deleteAs, deleting, everyObject } from './objects.ts';
import { ReconcileLoop } from './reconcile-loop.ts';

/** Deletes the content of terminating namespaces, then finalizes them (clears spec.finalizers) so they go. */
function finalizeNamespaces(cluster: Cluster): void {
  const namespaceType = cluster.registry.byKey('namespaces');
  if (namespaceType === undefined) return;
  for (const namespace of cluster.store.list('namespaces')) {
    if (!deleting(namespace)) continue;
    const name = namespace.metadata.name ?? '';
    for (const entry of everyObject(cluster, name))
      if (!deleting(entry.object)) deleteAs(cluster, entry, 'Background');
    if (everyObject(cluster, name).length > 0) continue;
    const spec = isJsonMap(namespace.spec) ? namespace.spec : {};
    const finalized = { ...namespace, spec: { ...spec, finalizers: [] } };
    if (released(namespaceType, finalized)) cluster.store.remove('namespaces', finalized);
    else if (Array.isArray(spec.finalizers) && spec.finalizers.length > 0)
      cluster.store.write('namespaces', finalized);
  }
}

export function startNamespaceController(cluster: Cluster): () => void {
  const loop = new ReconcileLoop(() => finalizeNamespaces(cluster));
  const unsubscribe = cluster.store.subscribe((event) => {
    if (event.key === 'namespaces' && deleting(event.object)) loop.request();
    const namespace = event.object.metadata.namespace;
    if (event.type === 'DELETED' && namespace !== undefined) {
      const owner = cluster.store.get('namespaces', undefined, namespace);
      if (owner !== undefined && deleting(owner)) loop.request();
    }
  });
  return () => {
    unsubscribe();
    loop.stop();
  };
}
