/** Server-side apply of manifests in order, like `kubectl apply --server-side` with Scoby's field manager. */
import type { KubeObject } from '@scoby/kube-objects';
import type { DynamicClient } from '@scoby/controller-runtime';

const FIELD_MANAGER = 'scoby-cli';
/** A CRD's resource appears in discovery shortly after the CRD is created. */
const DISCOVERY_ATTEMPTS = 50;
const DISCOVERY_PAUSE_MS = 100;

export async function applyObjects(
  client: DynamicClient,
  objects: readonly KubeObject[],
): Promise<KubeObject[]> {
  const applied: KubeObject[] = [];
  for (const object of objects) {
    let resource = await client.resourceFor(object.apiVersion, object.kind);
    for (let attempt = 1; resource === undefined && attempt < DISCOVERY_ATTEMPTS; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, DISCOVERY_PAUSE_MS));
      resource = await client.resourceFor(object.apiVersion, object.kind);
    }
    if (resource === undefined)
      throw new Error(`the API server does not serve ${object.kind} in ${object.apiVersion}`);
    applied.push(await client.apply(resource, object, FIELD_MANAGER));
  }
  return applied;
}
