/**
 * ConfigMaps and Secrets marked `immutable: true` keep their data and the mark; a Secret's type never
 * changes.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { deepEqual, type Cause } from '@scoby/structural-schema';
import { forbidden, invalidValue } from './field-errors.ts';

const IMMUTABLE = 'field is immutable when `immutable` is set';

export function validateDataUpdate(next: KubeObject, current: KubeObject): Cause[] {
  if (current.immutable !== true) return [];
  const causes: Cause[] = [];
  if (next.immutable !== true) causes.push(forbidden('immutable', IMMUTABLE));
  for (const field of ['data', 'binaryData']) {
    if (!deepEqual(next[field] ?? {}, current[field] ?? {})) causes.push(forbidden(field, IMMUTABLE));
  }
  return causes;
}

export function validateSecretUpdate(next: KubeObject, current: KubeObject): Cause[] {
  const typeChanged =
    next.type !== current.type ? [invalidValue('type', next.type ?? '', 'field is immutable')] : [];
  return [...typeChanged, ...validateDataUpdate(next, current)];
}
