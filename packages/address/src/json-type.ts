/** The JSON type name of a value, as used in messages (`number`, `boolean`, `null`, `array`, …). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
