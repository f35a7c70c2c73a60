/** RFC 7386 JSON Merge Patch (application/merge-patch+json). */
import { deepClone, isJsonObject } from '@scoby/structural-schema';

/** A non-object patch replaces the document; in an object patch null deletes and objects merge. */
export function applyMergePatch(doc: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return deepClone(patch);
  const result: Record<string, unknown> = isJsonObject(doc) ? deepClone(doc) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}
