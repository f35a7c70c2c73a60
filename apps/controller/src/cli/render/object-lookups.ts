/**
 * The cluster as `scoby render` sees it: only the objects given on the command line. Serves the same
 * lookups the controller serves from the API server: destinations (address.md) and controller
 * ConfigMaps (docs/spec/env.md §6.6), with the API server's messages for objects that are missing.
 */
import { resolveDestination, type ObjectReader, type ObjectRef, type ReadResult } from '@scoby/address';
import type { RenderLookups } from '@scoby/env';
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';

/** Kinds a cluster always serves, with their resource names; other kinds are known from the objects. */
const CORE_RESOURCES: Record<string, string> = {
  Service: 'services',
  ConfigMap: 'configmaps',
  Secret: 'secrets',
};

interface CrdNames {
  group?: string;
  names?: { kind?: string; plural?: string };
  versions?: { name?: string }[];
}

/** client-go's guess of a resource name from a kind, for kinds no CRD among the objects describes. */
function guessPlural(kind: string): string {
  const lower = kind.toLowerCase();
  if (lower.endsWith('s')) return `${lower}es`;
  if (lower.endsWith('y')) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

function kindKey(apiVersion: string, kind: string): string {
  return `${apiVersion} ${kind}`;
}

/** apiVersion + kind → resource name, for every kind the given objects (and their CRDs) make known. */
function knownResources(objects: readonly KubeObject[]): Map<string, string> {
  const resources = new Map<string, string>();
  for (const [kind, plural] of Object.entries(CORE_RESOURCES)) resources.set(kindKey('v1', kind), plural);
  for (const object of objects) {
    if (!resources.has(kindKey(object.apiVersion, object.kind))) {
      resources.set(kindKey(object.apiVersion, object.kind), guessPlural(object.kind));
    }
  }
  for (const crd of objects.filter((object) => object.kind === 'CustomResourceDefinition')) {
    const spec = (crd.spec ?? {}) as CrdNames;
    const { group, names } = spec;
    if (!group || !names?.kind || !names.plural) continue;
    for (const version of spec.versions ?? []) {
      if (version.name) resources.set(kindKey(`${group}/${version.name}`, names.kind), names.plural);
    }
  }
  return resources;
}

export function objectReader(objects: readonly KubeObject[]): ObjectReader {
  const resources = knownResources(objects);
  return {
    get: async (ref: ObjectRef): Promise<ReadResult> => {
      const resource = resources.get(kindKey(ref.apiVersion, ref.kind));
      if (resource === undefined) return { unknownKind: true };
      const object = objects.find(
        (candidate) =>
          candidate.apiVersion === ref.apiVersion &&
          candidate.kind === ref.kind &&
          (candidate.metadata.namespace ?? '') === ref.namespace &&
          candidate.metadata.name === ref.name,
      );
      if (object) return { found: true, object };
      const { group } = splitApiVersion(ref.apiVersion);
      return {
        found: false,
        message: `${group === '' ? resource : `${resource}.${group}`} "${ref.name}" not found`,
      };
    },
  };
}

export function objectLookups(
  objects: readonly KubeObject[],
  settings: { scobyNamespace: string; clusterDomain: string },
): RenderLookups {
  const reader = objectReader(objects);
  return {
    resolveAddress: (destination, namespace) =>
      resolveDestination(destination, { namespace, clusterDomain: settings.clusterDomain, reader }),
    controllerConfigMap: (name) => {
      const configMap = objects.find(
        (object) =>
          object.apiVersion === 'v1' &&
          object.kind === 'ConfigMap' &&
          object.metadata.namespace === settings.scobyNamespace &&
          object.metadata.name === name,
      );
      return configMap ? ((configMap.data ?? {}) as Record<string, string>) : undefined;
    },
    controllerNamespace: settings.scobyNamespace,
  };
}
