/**
 * Server-side apply for one dominant field manager: the applied configuration is set on the live
 * object (maps merged, keyed lists merged by key, other lists replaced), and what the manager applied
 * last time but no longer applies is removed: the leaves it owned, atomic lists, and a map or a merged
 * list it owned, whole (with what the server defaulted in it), unless another manager owns something
 * in it: then only the manager's parts go, and the map or list stays while anything is left in it. Fields the
 * manager never mentioned are left alone. A null in the applied configuration removes the field.
 */
import { deepClone, deepEqual, isJsonObject } from '@scoby/structural-schema';
import { ITEM, listStrategy, type ListStrategy } from './merge-keys.ts';

/** How the list at a path merges; by default the strategic-merge-patch keys of the built-in types. */
export type StrategyAt = (path: readonly string[]) => ListStrategy;

/** What withdrawing ownership yields when the whole field goes. */
const REMOVED = Symbol('removed');

/**
 * What the other managers own at one place of the object: their configurations' values there, each
 * followed down as the recursion goes (a map's key, a keyed list's item of the same identity).
 */
type Others = readonly unknown[];

function othersAtKey(others: Others, key: string): Others {
  return others.flatMap((owned) => (isJsonObject(owned) && owned[key] !== undefined ? [owned[key]] : []));
}

function othersAtItem(others: Others, item: unknown, keyOf: (item: unknown) => unknown): Others {
  return others.flatMap((owned) =>
    Array.isArray(owned) ? owned.filter((candidate) => deepEqual(keyOf(candidate), keyOf(item))) : [],
  );
}

/**
 * Removes from `live` what `previous` applied. A map or a mergeable list goes whole when no other
 * manager owns anything in it, as structured-merge-diff removes a field its applier owned: the values
 * the server defaulted inside it (a probe's timeoutSeconds) have no owner to keep them. Otherwise they
 * lose only their owned parts, and go when nothing is left.
 */
function withdraw(
  live: unknown,
  previous: unknown,
  path: readonly string[],
  at: StrategyAt,
  others: Others,
): unknown {
  if (isJsonObject(previous) && isJsonObject(live)) {
    if (others.length === 0) return REMOVED;
    const left = applyMap(live, {}, previous, path, at, others);
    return isJsonObject(left) && Object.keys(left).length === 0 ? REMOVED : left;
  }
  if (Array.isArray(previous) && Array.isArray(live) && at(path).kind !== 'replace') {
    if (others.length === 0) return REMOVED;
    const left = applyList(live, [], previous, path, at, others);
    return left.length === 0 ? REMOVED : left;
  }
  return REMOVED;
}

function applyMap(
  live: unknown,
  applied: Record<string, unknown>,
  previous: unknown,
  path: readonly string[],
  at: StrategyAt,
  others: Others,
): unknown {
  const result: Record<string, unknown> = isJsonObject(live) ? deepClone(live) : {};
  const before = isJsonObject(previous) ? previous : {};
  for (const key of Object.keys(before)) {
    if (key in applied) continue;
    const left = withdraw(result[key], before[key], [...path, key], at, othersAtKey(others, key));
    if (left === REMOVED) delete result[key];
    else result[key] = left;
  }
  for (const [key, value] of Object.entries(applied)) {
    if (value === null) delete result[key];
    else
      result[key] = applyValue(result[key], value, before[key], [...path, key], at, othersAtKey(others, key));
  }
  return result;
}

/**
 * The order of a merged list as structured-merge-diff (4.2 and later, Kubernetes 1.22 and later) gives
 * it: the applied items in the applied order, and live items the apply does not mention where they
 * were relative to the applied items around them. Each entry pairs a live item with its applied one.
 */
function mergedOrder(
  live: readonly unknown[],
  applied: readonly unknown[],
  keyOf: (item: unknown) => unknown,
): { live?: unknown; applied?: unknown }[] {
  const same = (a: unknown, b: unknown) => deepEqual(keyOf(a), keyOf(b));
  const isApplied = (item: unknown) => applied.some((candidate) => same(candidate, item));
  const shared = applied.filter((item) => live.some((candidate) => same(candidate, item)));
  let nextShared = shared.shift();
  const merged: unknown[] = [];
  const out: { live?: unknown; applied?: unknown }[] = [];
  let l = 0;
  let r = 0;
  while (l < live.length || r < applied.length) {
    if (l < live.length && r < applied.length) {
      if (same(live[l], applied[r])) {
        out.push({ live: live[l], applied: applied[r] });
        merged.push(applied[r]);
        l++;
        r++;
        nextShared = shared.shift();
        continue;
      }
      // A live item the apply mentions later: it moves to where the applied order puts it.
      if (isApplied(live[l]) && nextShared !== undefined && !same(nextShared, live[l])) {
        l++;
        continue;
      }
    }
    if (l < live.length) {
      if (!isApplied(live[l])) {
        out.push({ live: live[l] });
        l++;
        continue;
      }
      if (merged.some((item) => same(item, live[l]))) l++;
    }
    if (r < applied.length) {
      const item = applied[r];
      merged.push(item);
      out.push({ live: live.find((candidate) => same(candidate, item)), applied: item });
      r++;
      if (nextShared !== undefined && same(nextShared, item)) nextShared = shared.shift();
    }
  }
  return out;
}

/** The identity of a list item under a merging strategy. */
function identity(strategy: Exclude<ListStrategy, { kind: 'replace' }>): (item: unknown) => unknown {
  switch (strategy.kind) {
    case 'mergeScalars':
      return (item) => item;
    case 'mergeByKey':
      return (item) => (isJsonObject(item) ? item[strategy.key] : undefined);
    case 'mergeByKeys':
      return (item) =>
        isJsonObject(item) ? strategy.keys.map((key) => item[key] ?? strategy.defaults[key]) : undefined;
  }
}

function applyList(
  live: unknown,
  applied: unknown[],
  previous: unknown,
  path: readonly string[],
  at: StrategyAt,
  others: Others,
): unknown[] {
  const strategy = at(path);
  if (strategy.kind === 'replace') return deepClone(applied);
  const current = Array.isArray(live) ? live : [];
  const before = Array.isArray(previous) ? previous : [];
  const keyOf = identity(strategy);
  const isApplied = (item: unknown) => applied.some((candidate) => deepEqual(keyOf(candidate), keyOf(item)));
  const dropped = before.filter((item) => !isApplied(item));
  const kept = current.filter((item) => !dropped.some((old) => deepEqual(keyOf(old), keyOf(item))));
  return mergedOrder(kept, applied, keyOf).map((entry) => {
    if (entry.applied === undefined) return deepClone(entry.live);
    if (strategy.kind === 'mergeScalars') return entry.applied;
    const previousItem = before.find((old) => deepEqual(keyOf(old), keyOf(entry.applied)));
    return applyValue(
      entry.live,
      entry.applied,
      previousItem,
      [...path, ITEM],
      at,
      othersAtItem(others, entry.applied, keyOf),
    );
  });
}

function applyValue(
  live: unknown,
  applied: unknown,
  previous: unknown,
  path: readonly string[],
  at: StrategyAt,
  others: Others,
): unknown {
  if (isJsonObject(applied)) return applyMap(live, applied, previous, path, at, others);
  if (Array.isArray(applied)) return applyList(live, applied, previous, path, at, others);
  return applied;
}

/**
 * `othersOwned`: what every other manager owns (their applied configurations, the fields their
 * updates changed); a map this manager withdraws stays only where one of them owns something in it.
 */
export function applyServerSideApply(
  live: unknown,
  applied: unknown,
  previouslyApplied: unknown | undefined,
  strategyAt: StrategyAt = listStrategy,
  othersOwned: Others = [],
): unknown {
  return applyValue(live, applied, previouslyApplied, [], strategyAt, othersOwned);
}
