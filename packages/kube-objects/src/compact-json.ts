import { compareByteOrder } from './byte-order.ts';
import { isPlainObject } from './json.ts';

/**
 * Compact JSON (docs/spec/env.md §4), shared by rendering and update detection (docs/spec/children-and-status.md §5.2):
 * object keys in byte order at every depth. Written by hand because a key-sorted copy passed to
 * JSON.stringify would still put integer-like keys ("2", "10") first.
 */
export function compactJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += compactJson(value[i]);
    }
    return out + ']';
  }
  if (isPlainObject(value)) {
    let out = '{';
    for (const key of Object.keys(value).sort(compareByteOrder)) {
      const member = value[key];
      if (member === undefined) continue;
      if (out.length > 1) out += ',';
      out += JSON.stringify(key) + ':' + compactJson(member);
    }
    return out + '}';
  }
  // JSON.stringify's string escaping is exactly the one required; non-JSON values become null as in arrays.
  return JSON.stringify(value) ?? 'null';
}
