/** FieldsV1 sets of managedFields entries: nested maps whose leaves are `{}`. */

export type FieldSet = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The union of two FieldsV1 sets; a set that is not a map counts as empty. */
export function unionOfFields(a: unknown, b: unknown): FieldSet {
  if (!isRecord(a)) return isRecord(b) ? b : {};
  if (!isRecord(b)) return a;
  const union: FieldSet = { ...a };
  for (const [key, value] of Object.entries(b))
    union[key] = key in union ? unionOfFields(union[key], value) : value;
  return union;
}
