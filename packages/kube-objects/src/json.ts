/** Checks on JSON values of unknown shape, as read from objects the API server returns. */

/** A JSON object: neither null nor an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type name of a value, as messages spell it (`null`, `array`, `object`, `string`, …). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
