/**
 * An applied configuration whose keyed list holds two items with the same key cannot become a typed
 * patch (structured-merge-diff refuses it): the errors it gives, `.spec.ports: duplicate entries for key
 * [port=80,protocol="TCP"]`, one per duplicated key.
 */
import { isJsonObject } from '@scoby/structural-schema';
import { ITEM, type ListStrategy } from './merge-keys.ts';
import type { StrategyAt } from './server-side-apply.ts';

type KeyedStrategy = Extract<ListStrategy, { kind: 'mergeByKey' | 'mergeByKeys' }>;

/** The key of an item as structured-merge-diff prints it: `[name="http"]`, fields in name order. */
function renderKey(item: Record<string, unknown>, strategy: KeyedStrategy): string {
  const keys = strategy.kind === 'mergeByKey' ? [strategy.key] : [...strategy.keys];
  const defaults = strategy.kind === 'mergeByKeys' ? strategy.defaults : {};
  const parts = keys
    .sort()
    .map((key) => [key, item[key] ?? defaults[key]] as const)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `[${parts.join(',')}]`;
}

function walk(value: unknown, path: readonly string[], printed: string, at: StrategyAt, out: string[]): void {
  if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value))
      walk(child, [...path, key], `${printed}.${key}`, at, out);
    return;
  }
  if (!Array.isArray(value)) return;
  const strategy = at(path);
  if (strategy.kind !== 'mergeByKey' && strategy.kind !== 'mergeByKeys') return;
  const seen = new Set<string>();
  const reported = new Set<string>();
  for (const item of value) {
    if (!isJsonObject(item)) continue;
    const key = renderKey(item, strategy);
    if (seen.has(key) && !reported.has(key)) {
      out.push(`${printed}: duplicate entries for key ${key}`);
      reported.add(key);
    }
    seen.add(key);
    walk(item, [...path, ITEM], `${printed}${key}`, at, out);
  }
}

/** The duplicate-key errors of an applied configuration, in document order. */
export function duplicateKeyErrors(applied: unknown, at: StrategyAt): string[] {
  const out: string[] = [];
  walk(applied, [], '', at, out);
  return out;
}
