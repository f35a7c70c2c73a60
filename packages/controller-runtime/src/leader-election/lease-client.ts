import type { V1Lease } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { type DynamicClient, resourcePath, type ResourceRef } from '../client/dynamic-client.ts';
import type { LeaseClient } from './leader-elector.ts';

/** coordination.k8s.io/v1 Leases: the leader election's and the work sharing's. */
export const LEASES: ResourceRef = {
  group: 'coordination.k8s.io',
  version: 'v1',
  resource: 'leases',
  namespaced: true,
};

/**
 * The Lease calls of leader election over a DynamicClient, so they carry its request timeout. Give
 * it a client without a write fence: renewing the Lease is how a leader keeps the right to write.
 */
export function dynamicLeaseClient(client: DynamicClient): LeaseClient {
  const asLease = (object: unknown) => object as V1Lease;
  return {
    readNamespacedLease: async ({ name, namespace }) => asLease(await client.get(LEASES, namespace, name)),
    // The Lease body goes out as JSON; its metadata names the namespace the request does.
    createNamespacedLease: async ({ namespace, body }) => {
      const lease = body as unknown as KubeObject;
      return asLease(await client.create(LEASES, { ...lease, metadata: { ...lease.metadata, namespace } }));
    },
    replaceNamespacedLease: async ({ name, namespace, body }) =>
      asLease(await client.request('PUT', resourcePath(LEASES, namespace, name), { body })),
  };
}
