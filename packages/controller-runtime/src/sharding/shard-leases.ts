/**
 * The Lease calls of work sharing over a DynamicClient, and the Lease names it uses. Give it a
 * client without a write fence: renewing the Leases is how a replica keeps the right to write.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '@scoby/kube-objects';
import type { DynamicClient } from '../client/dynamic-client.ts';
import { LEASES } from '../leader-election/lease-client.ts';
import type { LeaseRecord } from '../leader-election/lease-record.ts';
import { toRecord, toSpec } from '../leader-election/lease-spec.ts';

/** `member` or `key`: what a Lease of work sharing stands for, for `kubectl get leases -l`. */
export const LEASE_ROLE_LABEL = 'scoby.triggermesh.io/lease';
/** The key (registration name) a key Lease stands for, whole even when the Lease's name is hashed. */
export const LEASE_KEY_ANNOTATION = 'scoby.triggermesh.io/key';

const MAX_NAME_LENGTH = 253;

function sha256Hex(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** A replica's membership Lease: its identity may hold characters a name may not. */
export function memberLeaseName(prefix: string, identity: string): string {
  return `${prefix}member-${sha256Hex(identity, 10)}`;
}

/** A key's Lease; a key too long for the name limit is hashed (its annotation keeps it whole). */
export function keyLeaseName(prefix: string, keyKind: string, key: string): string {
  const plain = `${prefix}${keyKind}-${key}`;
  return plain.length <= MAX_NAME_LENGTH ? plain : `${prefix}${keyKind}-${sha256Hex(key, 16)}`;
}

export interface ListedLease {
  name: string;
  resourceVersion: string;
  record: LeaseRecord;
  /** The whole object, as a replace sends it back. */
  object: KubeObject;
}

export interface ShardLeaseClient {
  list(namespace: string): Promise<ListedLease[]>;
  create(
    namespace: string,
    name: string,
    record: LeaseRecord,
    metadata: { labels: Record<string, string>; annotations?: Record<string, string> },
  ): Promise<ListedLease>;
  /** PUT with the listed resourceVersion: 409 Conflict when someone wrote it since. */
  replace(lease: ListedLease, record: LeaseRecord): Promise<ListedLease>;
  /** DELETE only if the Lease is still at the listed resourceVersion. */
  delete(namespace: string, lease: ListedLease): Promise<void>;
}

function listed(object: KubeObject): ListedLease {
  return {
    name: object.metadata.name ?? '',
    resourceVersion: object.metadata.resourceVersion ?? '',
    record: toRecord((object as { spec?: Parameters<typeof toRecord>[0] }).spec),
    object,
  };
}

export function dynamicShardLeaseClient(client: DynamicClient): ShardLeaseClient {
  return {
    list: async (namespace) => {
      const list = await client.list(LEASES, namespace);
      return list.items.map((item) =>
        listed({ ...item, apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }),
      );
    },
    create: async (namespace, name, record, metadata) =>
      listed(
        await client.create(LEASES, {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name, namespace, ...metadata },
          spec: toSpec(record),
        } as KubeObject),
      ),
    replace: async (lease, record) =>
      listed(
        await client.update(LEASES, {
          ...lease.object,
          metadata: { ...lease.object.metadata, resourceVersion: lease.resourceVersion },
          spec: toSpec(record),
        } as KubeObject),
      ),
    delete: async (namespace, lease) => {
      await client.delete(LEASES, namespace, lease.name, {
        preconditions: { resourceVersion: lease.resourceVersion },
      });
    },
  };
}
