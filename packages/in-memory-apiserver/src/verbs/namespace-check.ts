import type { Cluster } from '../cluster.ts';
import type { ResourceType } from '../resource-type.ts';
import { qualifiedResource, fail, namespaceNotFound, ok, type Outcome } from '../status.ts';
import { namespaceTerminating } from '../strategies/namespace.ts';

/** Creating in a namespace needs the namespace to exist and not be terminating. */
export function checkNamespaceAcceptsCreate(
  cluster: Cluster,
  type: ResourceType,
  namespace: string,
  name: string,
): Outcome<void> {
  const owner = cluster.store.get('namespaces', undefined, namespace);
  if (owner === undefined) return namespaceNotFound(namespace);
  if (namespaceTerminating(owner)) {
    return fail(
      403,
      'Forbidden',
      `${qualifiedResource(type)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
      {
        name,
        ...(type.group === '' ? {} : { group: type.group }),
        kind: type.plural,
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      },
    );
  }
  return ok(undefined);
}
