/** FieldsV1 sets of managedFields entries: nested maps whose leaves are `{}`. */

import { isJsonObject } from '@scoby/structural-schema';

export type FieldSet = Record<string, unknown>;

/** The union of two FieldsV1 sets; a set that is not a map counts as empty. */
export function unionOfFields(a: unknown, b: unknown): FieldSet {
  if (!isJsonObject(a)) return isJsonObject(b) ? b : {};
  if (!isJsonObject(b)) return a;
  const union: FieldSet = { ...a };
  for (const [key, value] of Object.entries(b))
    union[key] = key in union ? unionOfFields(union[key], value) : value;
  return union;
}
