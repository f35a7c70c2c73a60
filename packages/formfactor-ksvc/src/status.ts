/** Condition and address of the `knativeService` form factor (docs/spec/children-and-status.md §8.3, §8.7). */
import {
  observedCondition,
  type AddressResult,
  type ConditionResult,
  type FormFactorStatus,
  type StatusInput,
} from '@scoby/formfactor';
import { isPlainObject, type KubeObject } from '@scoby/kube-objects';
import type { KnativeServiceBlock } from './block.ts';

/** The original's misspelling, kept so existing dashboards and hooks keep matching. */
export const KNATIVE_UNKNOWN_REASON = 'KNSERVICEUNKOWN';

export function knativeServiceReady(ksvc: KubeObject | undefined): ConditionResult {
  const ready = observedCondition(ksvc, 'Ready');
  if (ready === undefined) return { status: 'Unknown', reason: KNATIVE_UNKNOWN_REASON, message: '' };
  switch (ready.status) {
    case 'True':
      return { status: 'True', reason: 'KNSERVICEOK', message: '' };
    case 'False':
      return { status: 'False', reason: ready.reason, message: ready.message };
    case 'Unknown':
      return { status: 'Unknown', reason: KNATIVE_UNKNOWN_REASON, message: ready.message };
    default:
      return {
        status: 'Unknown',
        reason: KNATIVE_UNKNOWN_REASON,
        message: `"Ready" condition for knative service contains an unexpected status: ${ready.status}`,
      };
  }
}

/** The observed `status.address.url` when it is a non-empty string; otherwise the field is removed. */
export function knativeServiceAddress(ksvc: KubeObject | undefined): AddressResult {
  const status = ksvc?.status;
  const address = isPlainObject(status) ? status['address'] : undefined;
  const url = isPlainObject(address) ? address['url'] : undefined;
  return typeof url === 'string' && url !== '' ? { kind: 'url', url } : { kind: 'none' };
}

export function knativeServiceStatus(input: StatusInput<KnativeServiceBlock>): FormFactorStatus {
  const ksvc = input.observed['ksvc'];
  return {
    conditions: { KnativeServiceReady: knativeServiceReady(ksvc) },
    address: knativeServiceAddress(ksvc),
  };
}
