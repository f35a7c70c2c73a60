/**
 * The instance as the API server would store it from the file `scoby render` was given: in the
 * namespace kubectl would create it in, with the generation a new object gets, and, with --crd,
 * pruned, defaulted and validated with the schema of its version (the project's structural-schema
 * package, which the in-memory API server uses too). A value the API server would refuse is reported
 * with the API server's 422 message.
 */
import { splitApiVersion, type KubeObject } from '@scoby/kube-objects';
import { formatInvalidMessage, pruneAndValidate, type JSONSchemaProps } from '@scoby/structural-schema';
import { DEFAULT_INSTANCE_NAMESPACE } from '../defaults.ts';
import type { RenderFailure } from './render-failure.ts';

interface CrdVersionSchema {
  name?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
}

export type InstanceAdmission = { ok: true; instance: KubeObject } | { ok: false; failure: RenderFailure };

/** The namespace the instance is created in: --namespace (kubectl's -n), its own, else `default`. */
export function instanceNamespace(instance: KubeObject, requested: string | undefined): string {
  return requested ?? (instance.metadata.namespace || DEFAULT_INSTANCE_NAMESPACE);
}

function versionSchema(crd: KubeObject, version: string): JSONSchemaProps | 'unserved' | undefined {
  const versions = ((crd.spec ?? {}) as { versions?: CrdVersionSchema[] }).versions ?? [];
  const entry = versions.find((candidate) => candidate.name === version);
  return entry === undefined ? 'unserved' : entry.schema?.openAPIV3Schema;
}

/**
 * `namespace` is where an instance without one is created (kubectl's `default`, or --namespace); an
 * instance naming another namespace is refused as kubectl refuses it.
 */
export function admitInstance(instance: KubeObject, namespace: string, crd?: KubeObject): InstanceAdmission {
  const own = instance.metadata.namespace;
  if (own !== undefined && own !== '' && own !== namespace) {
    return {
      ok: false,
      failure: {
        reason: 'InvalidInput',
        message: `the namespace from the instance "${own}" does not match the namespace "${namespace}"`,
      },
    };
  }
  const placed: KubeObject = {
    ...instance,
    metadata: {
      ...instance.metadata,
      namespace,
      // A created object starts at generation 1; its status reports observedGeneration 1.
      generation: instance.metadata.generation ?? 1,
    },
  };
  if (crd === undefined) return { ok: true, instance: placed };
  const { group, version } = splitApiVersion(instance.apiVersion);
  const schema = versionSchema(crd, version);
  if (schema === 'unserved') {
    return {
      ok: false,
      failure: {
        reason: 'InvalidInput',
        message: `--crd: CRD "${crd.metadata.name ?? ''}" has no version "${version}" (instance ${instance.apiVersion})`,
      },
    };
  }
  if (schema === undefined) return { ok: true, instance: placed };
  const checked = pruneAndValidate(schema, placed, { root: true });
  if (checked.causes.length > 0) {
    const name = placed.metadata.name ?? '';
    return {
      ok: false,
      failure: {
        reason: 'Invalid',
        message: formatInvalidMessage(`${instance.kind}.${group}`, name, checked.causes),
      },
    };
  }
  return { ok: true, instance: checked.value as KubeObject };
}
