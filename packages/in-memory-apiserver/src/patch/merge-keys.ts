/**
 * The patch strategies of the built-in types' lists, from their Go struct tags
 * (`patchStrategy:"merge" patchMergeKey:"..."`). A list is identified by its field name and, for
 * `ports`, by where it sits: container ports merge on containerPort, a Service's spec.ports on port.
 */

/** How a list field is patched: merged by a key, merged as a set of scalars, or replaced whole. */
export type PatchListStrategy =
  { kind: 'mergeByKey'; key: string } | { kind: 'mergeScalars' } | { kind: 'replace' };

/** Server-side apply also knows `x-kubernetes-list-type: map`, whose items several keys identify. */
export type ListStrategy =
  | PatchListStrategy
  /** `defaults`: the schema's default of a key an item may leave out (a Service port's protocol). */
  | { kind: 'mergeByKeys'; keys: readonly string[]; defaults: Readonly<Record<string, unknown>> };

const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  conditions: 'type',
  ownerReferences: 'uid',
  hostAliases: 'ip',
};

const CONTAINER_LISTS: ReadonlySet<string> = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** The marker a list item contributes to a field path. */
export const ITEM = '[]';

/**
 * The strategy of the list at `path` (field names from the document root, `[]` for list items),
 * e.g. ['spec', 'template', 'spec', 'containers', '[]', 'ports'].
 */
export function listStrategy(path: readonly string[]): PatchListStrategy {
  const field = path[path.length - 1] ?? '';
  if (field === 'ports') {
    const container =
      path.length >= 3 && path[path.length - 2] === ITEM && CONTAINER_LISTS.has(path[path.length - 3] ?? '');
    if (container) return { kind: 'mergeByKey', key: 'containerPort' };
    const servicePorts = path.length === 2 && path[0] === 'spec';
    return servicePorts ? { kind: 'mergeByKey', key: 'port' } : { kind: 'replace' };
  }
  if (field === 'finalizers' && path.length === 2 && path[0] === 'metadata') return { kind: 'mergeScalars' };
  const key = MERGE_KEYS[field];
  return key === undefined ? { kind: 'replace' } : { kind: 'mergeByKey', key };
}

/** Set union of scalar lists: `base` in its order, then the additions it lacks. */
export function appendMissing(base: readonly unknown[], additions: readonly unknown[]): unknown[] {
  const result = structuredClone([...base]);
  for (const item of additions) if (!result.some((existing) => existing === item)) result.push(item);
  return result;
}
