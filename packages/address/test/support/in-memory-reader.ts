import type { ObjectReader, ObjectRef, ReadResult } from '../../src/index.ts';

/** A kind the in-memory "cluster" serves, with the plural resource name used in API messages. */
export interface ServedKind {
  apiVersion: string;
  kind: string;
  resource: string;
}

export interface StoredObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
  [key: string]: unknown;
}

/**
 * An ObjectReader over plain objects, answering like an API server: unknown kinds, and
 * `<resource>[.<group>] "<name>" not found` for missing objects. `requests` records every read.
 */
export function inMemoryReader(
  served: ServedKind[],
  objects: StoredObject[],
): ObjectReader & { requests: ObjectRef[] } {
  const requests: ObjectRef[] = [];
  return {
    requests,
    async get(ref: ObjectRef): Promise<ReadResult> {
      requests.push(ref);
      const kind = served.find(
        (candidate) => candidate.apiVersion === ref.apiVersion && candidate.kind === ref.kind,
      );
      if (kind === undefined) return { unknownKind: true };
      const object = objects.find(
        (candidate) =>
          candidate.apiVersion === ref.apiVersion &&
          candidate.kind === ref.kind &&
          candidate.metadata.namespace === ref.namespace &&
          candidate.metadata.name === ref.name,
      );
      if (object !== undefined) return { found: true, object };
      const slash = ref.apiVersion.indexOf('/');
      const qualified = slash < 0 ? kind.resource : `${kind.resource}.${ref.apiVersion.slice(0, slash)}`;
      return { found: false, message: `${qualified} ${JSON.stringify(ref.name)} not found` };
    },
  };
}
