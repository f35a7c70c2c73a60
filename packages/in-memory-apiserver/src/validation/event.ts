/**
 * Core v1 Event validation, kube-apiserver's legacyValidateEvent (the only one for requests in v1): an
 * Event without eventTime names an involved object in its own namespace (or none, for an Event in
 * `default`); one with an eventTime needs a reporting component and instance, an action and a reason,
 * each within its length limit. The type is not checked in v1.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isJsonObject, type Cause } from '@scoby/structural-schema';
import { invalidValue, requiredValue } from './field-errors.ts';

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 } as const;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function involvedNamespaceCauses(event: KubeObject, timed: boolean): Cause[] {
  const involved = isJsonObject(event.involvedObject) ? event.involvedObject : {};
  const involvedNamespace = text(involved.namespace);
  const namespace = event.metadata.namespace ?? '';
  const matches =
    involvedNamespace === ''
      ? timed
        ? namespace === 'default' || namespace === 'kube-system'
        : namespace === '' || namespace === 'default'
      : timed || namespace === involvedNamespace;
  return matches
    ? []
    : [invalidValue('involvedObject.namespace', involvedNamespace, 'does not match event.namespace')];
}

function timedEventCauses(event: KubeObject): Cause[] {
  const causes: Cause[] = [];
  if (text(event.reportingComponent) === '') causes.push(requiredValue('reportingComponent', ''));
  for (const field of ['reportingInstance', 'action', 'reason'] as const) {
    const value = text(event[field]);
    if (value === '') causes.push(requiredValue(field, ''));
    if (value.length > LIMITS[field])
      causes.push(invalidValue(field, '', `can have at most ${LIMITS[field]} characters`));
  }
  if (text(event.message).length > LIMITS.message)
    causes.push(invalidValue('message', '', `can have at most ${LIMITS.message} characters`));
  return causes;
}

export function validateCoreEvent(event: KubeObject): Cause[] {
  const timed = event.eventTime !== undefined && event.eventTime !== null;
  return [...involvedNamespaceCauses(event, timed), ...(timed ? timedEventCauses(event) : [])];
}
