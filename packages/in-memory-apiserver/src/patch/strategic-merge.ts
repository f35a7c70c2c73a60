/**
 * Strategic merge patch (application/strategic-merge-patch+json) for the built-in types: lists with
 * a merge key are merged item by item, `metadata.finalizers` as a set, other lists replaced. Supports
 * the `$patch` (replace | delete | merge), `$retainKeys` and `$deleteFromPrimitiveList/<field>`
 * directives; `$setElementOrder/<field>` is accepted and ignored. null deletes a key.
 */
import { goPlain } from '@scoby/structural-schema';
import { deepClone, deepEqual, isJsonObject, type JsonMap } from '@scoby/structural-schema';
import { ITEM, appendMissing, listStrategy } from './merge-keys.ts';
import { unmarshalError } from './unmarshal-error.ts';
import { patched, rejected, type PatchResult } from './result.ts';

class PatchFailure extends Error {}

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';

/** What merging a map yields when the patch says `$patch: delete`. */
const DELETED = Symbol('deleted');

function isDirectiveKey(key: string): boolean {
  return (
    key === PATCH ||
    key === RETAIN_KEYS ||
    key.startsWith(DELETE_FROM_PRIMITIVE_LIST) ||
    key.startsWith(SET_ELEMENT_ORDER)
  );
}

function withoutDirectives(patch: JsonMap): JsonMap {
  return Object.fromEntries(Object.entries(patch).filter(([key]) => !isDirectiveKey(key)));
}

function unknownPatchType(directive: unknown, patch: JsonMap): PatchFailure {
  return new PatchFailure(`unknown patch type: ${goPlain(directive)} in map: ${goPlain(patch)}`);
}

function mergeMap(original: JsonMap, patch: JsonMap, path: readonly string[]): JsonMap | typeof DELETED {
  const directive = patch[PATCH];
  if (directive === 'delete') return DELETED;
  if (directive === 'replace') return deepClone(withoutDirectives(patch));
  if (directive !== undefined && directive !== 'merge') throw unknownPatchType(directive, patch);

  const result = deepClone(original);
  const retained = patch[RETAIN_KEYS];
  if (Array.isArray(retained)) {
    for (const key of Object.keys(result)) if (!retained.includes(key)) delete result[key];
  }
  for (const [key, values] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    const field = key.slice(DELETE_FROM_PRIMITIVE_LIST.length);
    const current = result[field];
    if (Array.isArray(current) && Array.isArray(values)) {
      result[field] = current.filter((item) => !values.some((gone) => deepEqual(gone, item)));
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (isDirectiveKey(key)) continue;
    if (value === null) {
      delete result[key];
      continue;
    }
    const merged = mergeValue(result[key], value, [...path, key]);
    if (merged === DELETED) delete result[key];
    else result[key] = merged;
  }
  return result;
}

function mergeValue(original: unknown, patch: unknown, path: readonly string[]): unknown {
  if (isJsonObject(patch)) return mergeMap(isJsonObject(original) ? original : {}, patch, path);
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : [], patch, path);
  return deepClone(patch);
}

/**
 * The order kube's strategic merge gives a merged list (normalizeElementOrder): the items the patch
 * names in the patch's order, the others in the original's, interleaved where the original orders
 * both (an item the original lacks goes before the server-only item it meets).
 */
function kubeOrder(
  merged: unknown[],
  patch: unknown[],
  original: unknown[],
  id: (item: unknown) => unknown,
): unknown[] {
  const indexIn = (list: unknown[], item: unknown) =>
    list.findIndex((other) => deepEqual(id(other), id(item)));
  const fromPatch = merged.filter((item) => indexIn(patch, item) >= 0);
  fromPatch.sort((a, b) => indexIn(patch, a) - indexIn(patch, b));
  const serverOnly = merged.filter((item) => indexIn(patch, item) < 0);
  const result: unknown[] = [];
  let left = 0;
  let right = 0;
  while (left < serverOnly.length || right < fromPatch.length) {
    if (left >= serverOnly.length) result.push(fromPatch[right++]);
    else if (right >= fromPatch.length) result.push(serverOnly[left++]);
    else {
      const serverIndex = indexIn(original, serverOnly[left]);
      const patchIndex = indexIn(original, fromPatch[right]);
      if (serverIndex >= 0 && patchIndex >= 0 && serverIndex < patchIndex) result.push(serverOnly[left++]);
      else result.push(fromPatch[right++]);
    }
  }
  return result;
}

function mergeList(original: unknown[], patch: unknown[], path: readonly string[]): unknown[] {
  const strategy = listStrategy(path);
  if (strategy.kind === 'replace') return deepClone(patch);
  if (strategy.kind === 'mergeScalars') {
    return kubeOrder(appendMissing(original, patch), patch, original, (item) => item);
  }
  const key = strategy.key;
  const replaceMarker = patch.findIndex((item) => isJsonObject(item) && item[PATCH] === 'replace');
  if (replaceMarker >= 0) {
    return patch
      .filter((_, i) => i !== replaceMarker)
      .map((item) => mergeValue(undefined, item, [...path, ITEM]));
  }
  let result = deepClone(original);
  const sameKey = (item: unknown, value: unknown): boolean =>
    isJsonObject(item) && deepEqual(item[key], value);
  for (const item of patch) {
    if (!isJsonObject(item)) {
      throw new PatchFailure(
        `expected a map with merge key "${key}" in list ${path.join('.')}, got ${goPlain(item)}`,
      );
    }
    if (!(key in item))
      throw new PatchFailure(`map: ${goPlain(item)} does not contain declared merge key: ${key}`);
    const directive = item[PATCH];
    if (directive === 'delete') {
      result = result.filter((existing) => !sameKey(existing, item[key]));
      continue;
    }
    const index = result.findIndex((existing) => sameKey(existing, item[key]));
    const base = index >= 0 && isJsonObject(result[index]) ? (result[index] as JsonMap) : {};
    const merged = mergeMap(base, item, [...path, ITEM]);
    if (merged === DELETED) continue;
    if (index >= 0) result[index] = merged;
    else result.push(merged);
  }
  const keyOf = (item: unknown) => (isJsonObject(item) ? item[key] : undefined);
  const kept = original.filter((item) => result.some((merged) => deepEqual(keyOf(merged), keyOf(item))));
  return kubeOrder(result, patch, kept, keyOf);
}

export function applyStrategicMergePatch(doc: unknown, patch: unknown): PatchResult {
  if (!isJsonObject(patch)) {
    return rejected(unmarshalError(patch, 'map[string]interface {}'));
  }
  try {
    const merged = mergeMap(isJsonObject(doc) ? doc : {}, patch, []);
    return patched(merged === DELETED ? {} : merged);
  } catch (error) {
    if (error instanceof PatchFailure) return rejected(error.message);
    throw error;
  }
}
