/**
 * Conflicts of a server-side apply with the configurations other managers applied: a field both set,
 * to different values, is a conflict (structured-merge-diff's), named by its path as kube-apiserver
 * prints it (`.data.key`, `.spec.ports[port=53,protocol="TCP"].name`). Forcing the apply takes those
 * fields from the other managers: their configurations lose them.
 */
import { deepEqual, isJsonObject } from '@scoby/structural-schema';
import { ITEM, type ListStrategy } from './merge-keys.ts';
import type { StrategyAt } from './server-side-apply.ts';

export interface ApplyConflict {
  /** The manager as kube-apiserver prints it: `"name"` for an apply, `"name" using v1` for an update. */
  readonly manager: string;
  /** The field path as structured-merge-diff prints it. */
  readonly field: string;
}

/** Fields no manager owns: the object's identity, which every apply names. */
const UNOWNED_TOP = new Set(['apiVersion', 'kind']);
const UNOWNED_METADATA = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'managedFields',
  'selfLink',
]);

export function unowned(path: readonly string[], key: string): boolean {
  if (path.length === 0) return UNOWNED_TOP.has(key);
  return path.length === 1 && path[0] === 'metadata' && UNOWNED_METADATA.has(key);
}

/** A value in a path element as Go's value.ToString writes it: strings quoted, numbers and booleans bare. */
function printValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);
}

export type Merging = Exclude<ListStrategy, { kind: 'replace' }>;

/** The printed path element naming a list item; items with the same element are the same item. */
export function itemElement(strategy: Merging, item: unknown): string {
  switch (strategy.kind) {
    case 'mergeScalars':
      return `[=${printValue(item)}]`;
    case 'mergeByKey':
      return `[${strategy.key}=${printValue(isJsonObject(item) ? item[strategy.key] : undefined)}]`;
    case 'mergeByKeys': {
      const keys = [...strategy.keys].sort();
      const fields = keys.map(
        (key) =>
          `${key}=${printValue(isJsonObject(item) ? (item[key] ?? strategy.defaults[key]) : undefined)}`,
      );
      return `[${fields.join(',')}]`;
    }
  }
}

/** What a comparison leaves of the other manager's value: the value, pruned, or nothing. */
const REMOVED = Symbol('removed');

interface Walk {
  readonly fields: string[];
  readonly left: unknown;
}

function compare(
  applied: unknown,
  owned: unknown,
  path: readonly string[],
  printed: string,
  at: StrategyAt,
): Walk {
  if (isJsonObject(applied) && isJsonObject(owned)) return compareMaps(applied, owned, path, printed, at);
  if (Array.isArray(applied) && Array.isArray(owned)) {
    const strategy = at(path);
    if (strategy.kind !== 'replace') return compareLists(applied, owned, strategy, path, printed, at);
  }
  return deepEqual(applied, owned) ? { fields: [], left: owned } : { fields: [printed], left: REMOVED };
}

function compareMaps(
  applied: Record<string, unknown>,
  owned: Record<string, unknown>,
  path: readonly string[],
  printed: string,
  at: StrategyAt,
): Walk {
  const fields: string[] = [];
  const left: Record<string, unknown> = { ...owned };
  for (const [key, value] of Object.entries(applied)) {
    if (!(key in owned) || value === null || unowned(path, key)) continue;
    const walk = compare(value, owned[key], [...path, key], `${printed}.${key}`, at);
    fields.push(...walk.fields);
    if (walk.left === REMOVED) delete left[key];
    else left[key] = walk.left;
  }
  return { fields, left };
}

function compareLists(
  applied: readonly unknown[],
  owned: readonly unknown[],
  strategy: Merging,
  path: readonly string[],
  printed: string,
  at: StrategyAt,
): Walk {
  const fields: string[] = [];
  const left: unknown[] = [];
  for (const item of owned) {
    const element = itemElement(strategy, item);
    const match = applied.find((candidate) => itemElement(strategy, candidate) === element);
    if (match === undefined || strategy.kind === 'mergeScalars') {
      left.push(item);
      continue;
    }
    const walk = compare(match, item, [...path, ITEM], `${printed}${element}`, at);
    fields.push(...walk.fields);
    if (walk.left !== REMOVED) left.push(walk.left);
  }
  return { fields, left };
}

/** The conflicts of `applied` with each other manager's configuration (keyed by its printed name), in manager order. */
export function applyConflicts(
  applied: unknown,
  others: ReadonlyMap<string, unknown>,
  at: StrategyAt,
): ApplyConflict[] {
  return [...others].flatMap(([manager, owned]) =>
    compare(applied, owned, [], '', at).fields.map((field) => ({ manager, field })),
  );
}

/** The other managers' configurations once a forced apply took the conflicting fields from them. */
export function withoutConflicts(
  applied: unknown,
  others: ReadonlyMap<string, unknown>,
  at: StrategyAt,
): Map<string, unknown> {
  const left = new Map<string, unknown>();
  for (const [manager, owned] of others) {
    const walk = compare(applied, owned, [], '', at);
    left.set(manager, walk.left === REMOVED ? {} : walk.left);
  }
  return left;
}

/** kube-apiserver's message for apply conflicts (apimachinery's fieldmanager NewConflictError). */
export function conflictMessage(conflicts: readonly ApplyConflict[]): string {
  const [first] = conflicts;
  if (conflicts.length === 1 && first !== undefined) {
    return `Apply failed with 1 conflict: conflict with ${first.manager}: ${first.field}`;
  }
  const managers = [...new Set(conflicts.map((conflict) => conflict.manager))].sort();
  const lines = managers.flatMap((manager) => [
    `conflicts with ${manager}:`,
    ...conflicts.filter((conflict) => conflict.manager === manager).map((conflict) => `- ${conflict.field}`),
  ]);
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
