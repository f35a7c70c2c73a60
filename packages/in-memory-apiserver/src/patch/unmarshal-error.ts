/** encoding/json's message when a patch body has the wrong JSON type for the Go value it decodes into. */
import { isJsonObject } from '@scoby/structural-schema';

function goJsonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (isJsonObject(value)) return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

export function unmarshalError(value: unknown, goType: string): string {
  return `json: cannot unmarshal ${goJsonTypeName(value)} into Go value of type ${goType}`;
}
