import { compactJson } from '@scoby/kube-objects';

/**
 * The env `value` of a spec value (docs/spec/env.md §4); undefined for null, which renders nothing.
 */
export function formatValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      if (value === null) return undefined;
      return Array.isArray(value) ? formatArray(value) : compactJson(value);
    default:
      return undefined;
  }
}

/** Primitive elements joined with `,` in array order; any nested object or array makes it JSON. */
function formatArray(elements: unknown[]): string {
  let out = '';
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i];
    if (typeof element === 'object' && element !== null) return compactJson(elements);
    if (i > 0) out += ',';
    if (element !== null && element !== undefined) out += String(element);
  }
  return out;
}
