/**
 * Server-side apply for one dominant field manager: the applied configuration is set on the live
 * object (maps merged, keyed lists merged by key, other lists replaced), and what the manager applied
 * last time but no longer applies is removed: the leaves it owned, keyed items and atomic lists, and a
 * map that the withdrawal leaves empty (one that still holds fields of others stays). Fields the manager never
 * mentioned are left alone. A null in the applied configuration removes the field.
 */
import { deepClone, deepEqual, isJsonObject } from '@scoby/structural-schema';
import { ITEM, appendMissing, listStrategy } from './merge-keys.ts';

/** What withdrawing ownership yields when the whole field goes. */
const REMOVED = Symbol('removed');

/** Removes from `live` what `previous` applied; maps and mergeable lists lose only their owned parts. */
function withdraw(live: unknown, previous: unknown, path: readonly string[]): unknown {
  if (isJsonObject(previous) && isJsonObject(live)) {
    const left = applyMap(live, {}, previous, path);
    return isJsonObject(left) && Object.keys(left).length === 0 ? REMOVED : left;
  }
  if (Array.isArray(previous) && Array.isArray(live) && listStrategy(path).kind !== 'replace') {
    return applyList(live, [], previous, path);
  }
  return REMOVED;
}

function applyMap(
  live: unknown,
  applied: Record<string, unknown>,
  previous: unknown,
  path: readonly string[],
): unknown {
  const result: Record<string, unknown> = isJsonObject(live) ? deepClone(live) : {};
  const before = isJsonObject(previous) ? previous : {};
  for (const key of Object.keys(before)) {
    if (key in applied) continue;
    const left = withdraw(result[key], before[key], [...path, key]);
    if (left === REMOVED) delete result[key];
    else result[key] = left;
  }
  for (const [key, value] of Object.entries(applied)) {
    if (value === null) delete result[key];
    else result[key] = applyValue(result[key], value, before[key], [...path, key]);
  }
  return result;
}

function applyList(live: unknown, applied: unknown[], previous: unknown, path: readonly string[]): unknown[] {
  const strategy = listStrategy(path);
  if (strategy.kind === 'replace') return deepClone(applied);
  const current = Array.isArray(live) ? live : [];
  const before = Array.isArray(previous) ? previous : [];
  if (strategy.kind === 'mergeScalars') {
    const dropped = before.filter((item) => !applied.includes(item));
    return appendMissing(
      current.filter((item) => !dropped.includes(item)),
      applied,
    );
  }
  const keyOf = (item: unknown): unknown => (isJsonObject(item) ? item[strategy.key] : undefined);
  const appliedKeys = applied.map(keyOf);
  const dropped = before.map(keyOf).filter((key) => !appliedKeys.some((k) => deepEqual(k, key)));
  const result = current.filter((item) => !dropped.some((key) => deepEqual(key, keyOf(item))));
  for (const item of applied) {
    const index = result.findIndex((existing) => deepEqual(keyOf(existing), keyOf(item)));
    const previousItem = before.find((old) => deepEqual(keyOf(old), keyOf(item)));
    const merged = applyValue(index >= 0 ? result[index] : undefined, item, previousItem, [...path, ITEM]);
    if (index >= 0) result[index] = merged;
    else result.push(merged);
  }
  return result;
}

function applyValue(live: unknown, applied: unknown, previous: unknown, path: readonly string[]): unknown {
  if (isJsonObject(applied)) return applyMap(live, applied, previous, path);
  if (Array.isArray(applied)) return applyList(live, applied, previous, path);
  return applied;
}

export function applyServerSideApply(
  live: unknown,
  applied: unknown,
  previouslyApplied: unknown | undefined,
): unknown {
  return applyValue(live, applied, previouslyApplied, []);
}
