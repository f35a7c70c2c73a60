/**
 * JSON values as CEL sees them in kube-apiserver: `integer` fields (and whole numbers without a schema,
 * which Go decodes as int64) are CEL ints, `number` fields doubles.
 */
import { isJsonObject, type JSONSchemaProps } from '@scoby/structural-schema';

export function celValue(schema: JSONSchemaProps | undefined, value: unknown): unknown {
  if (typeof value === 'number') {
    const integer = schema?.type === 'integer' || (schema?.type !== 'number' && Number.isInteger(value));
    return integer && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => celValue(schema?.items, item));
  if (isJsonObject(value)) {
    const additional =
      typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [
        key,
        celValue(schema?.properties?.[key] ?? additional, child),
      ]),
    );
  }
  return value;
}
