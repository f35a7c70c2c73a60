/**
 * The fields an update (PUT or patch) changed, in the shape of an applied configuration: kube-apiserver
 * gives them to the updating manager, taking them from whoever owned them before. Keyed list items keep
 * their keys so that they can be found again; members of sets are left out (they never conflict).
 */
import { deepEqual, isJsonObject } from '@scoby/structural-schema';
import { itemElement, unowned } from './apply-conflicts.ts';
import { ITEM } from './merge-keys.ts';
import type { StrategyAt } from './server-side-apply.ts';

const SAME = Symbol('same');

function changedMap(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  path: readonly string[],
  at: StrategyAt,
): unknown {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (unowned(path, key)) continue;
    const change = changed(before[key], value, [...path, key], at);
    if (change !== SAME) result[key] = change;
  }
  return Object.keys(result).length === 0 ? SAME : result;
}

function changed(before: unknown, after: unknown, path: readonly string[], at: StrategyAt): unknown {
  if (deepEqual(before, after)) return SAME;
  if (isJsonObject(before) && isJsonObject(after)) return changedMap(before, after, path, at);
  if (Array.isArray(before) && Array.isArray(after)) {
    const strategy = at(path);
    if (strategy.kind === 'mergeScalars') return SAME;
    if (strategy.kind !== 'replace') {
      const keys = strategy.kind === 'mergeByKey' ? [strategy.key] : strategy.keys;
      const items = after.flatMap((item) => {
        const element = itemElement(strategy, item);
        const old = before.find((candidate) => itemElement(strategy, candidate) === element);
        const change = changed(old, item, [...path, ITEM], at);
        if (change === SAME) return [];
        if (!isJsonObject(change) || !isJsonObject(item)) return [change];
        const identity = Object.fromEntries(keys.filter((key) => key in item).map((key) => [key, item[key]]));
        return [{ ...change, ...identity }];
      });
      return items.length === 0 ? SAME : items;
    }
  }
  return after;
}

/** What `after` sets differently from `before`; an empty object when nothing changed. */
export function changedFields(before: unknown, after: unknown, at: StrategyAt): unknown {
  const change = changed(before, after, [], at);
  return change === SAME ? {} : change;
}
