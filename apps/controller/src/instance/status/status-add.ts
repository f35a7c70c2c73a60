/**
 * statusConfiguration.add (docs/spec/children-and-status.md §8.9): copy rendered values into status.
 */
import { parsePath } from '@scoby/registration';

type Status = Record<string, unknown>;

export interface StatusAddEntry {
  path: string;
  valueFrom: { path: string };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Segments below `status` of a written status path; undefined for a malformed one. */
function statusSegments(path: string): string[] | undefined {
  const parsed = parsePath(path, 'status');
  return parsed.ok ? parsed.segments.slice(1) : undefined;
}

function setAt(status: Status, segments: readonly string[], value: string): void {
  let node: Record<string, unknown> = status;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (next === undefined || next === null) node[segment] = {};
    else if (!isObject(next)) return; // §8.9: an existing non-object on the way skips the entry.
    node = node[segment] as Record<string, unknown>;
  }
  node[segments[segments.length - 1]!] = value;
}

function removeAt(status: Status, segments: readonly string[]): void {
  let node: unknown = status;
  for (const segment of segments.slice(0, -1)) {
    if (!isObject(node)) return;
    node = node[segment];
  }
  if (isObject(node)) delete node[segments[segments.length - 1]!];
}

/**
 * Applies the entries in list order to a copy of `status`; without entries, `status` itself comes
 * back (most registrations have none, and every reconcile passes here). `sourceMap` maps normalised
 * spec paths to the literal values rendering produced; `allowed` tells whether the status schema
 * admits a path.
 */
export function applyStatusAdd(
  status: Status,
  entries: readonly StatusAddEntry[],
  sourceMap: Readonly<Record<string, string>>,
  allowed: (segments: readonly string[]) => boolean,
): Status {
  if (entries.length === 0) return status;
  const result = structuredClone(status);
  for (const entry of entries) {
    const target = statusSegments(entry.path);
    const source = parsePath(entry.valueFrom.path, 'spec');
    if (!target || !source.ok || !allowed(target)) continue;
    const value = sourceMap[source.normalized];
    if (value === undefined) removeAt(result, target);
    else setAt(result, target, value);
  }
  return result;
}
