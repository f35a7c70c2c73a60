/** A Lease's spec as the API carries it, and the record the election rules reason about. */
import { V1MicroTime, type V1LeaseSpec } from '@kubernetes/client-node';
import { type LeaseRecord, parseLeaseTime } from './lease-record.ts';

export function toRecord(spec: V1LeaseSpec | undefined): LeaseRecord {
  return {
    holderIdentity: spec?.holderIdentity,
    leaseDurationSeconds: spec?.leaseDurationSeconds,
    acquireTime: parseLeaseTime(spec?.acquireTime),
    renewTime: parseLeaseTime(spec?.renewTime),
    leaseTransitions: spec?.leaseTransitions,
  };
}

export function toSpec(record: LeaseRecord): V1LeaseSpec {
  const time = (ms: number | undefined) => (ms === undefined ? undefined : new V1MicroTime(ms));
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: time(record.acquireTime),
    renewTime: time(record.renewTime),
    leaseTransitions: record.leaseTransitions,
  };
}
