import { compareVersionPriority, type KubeObject } from '@scoby/kube-objects';
import { CUSTOM_RESOURCE_VERBS, storageVersionHash, type ResourceType } from './resource-type.ts';
import type { CrdSpec } from './crd-spec.ts';
import type { JSONSchemaProps } from '@scoby/structural-schema';

export function crdSpec(crd: KubeObject): CrdSpec {
  return crd.spec as CrdSpec;
}

/** The names a CRD ends up serving, with the defaults the real server fills into status.acceptedNames. */
export function acceptedNames(spec: CrdSpec): CrdSpec['names'] & { singular: string; listKind: string } {
  const { shortNames, categories } = spec.names;
  return {
    plural: spec.names.plural,
    singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
    kind: spec.names.kind,
    listKind: spec.names.listKind ?? `${spec.names.kind}List`,
    ...(shortNames !== undefined && shortNames.length > 0 ? { shortNames } : {}),
    ...(categories !== undefined && categories.length > 0 ? { categories } : {}),
  };
}

export function storageVersion(spec: CrdSpec): string | undefined {
  return spec.versions.find((version) => version.storage === true)?.name;
}

/** The resource a CustomResourceDefinition serves. */
export function resourceTypeOfCrd(crd: KubeObject): ResourceType {
  const spec = crdSpec(crd);
  const names = acceptedNames(spec);
  const served = spec.versions.filter((version) => version.served !== false);
  const scale = served.find((version) => version.subresources?.scale !== undefined)?.subresources?.scale;
  const schemas = new Map<string, JSONSchemaProps>();
  for (const version of served) {
    const schema = version.schema?.openAPIV3Schema;
    if (schema !== undefined) schemas.set(version.name, schema);
  }
  return {
    group: spec.group,
    versions: served.map((version) => version.name).sort(compareVersionPriority),
    plural: names.plural,
    singular: names.singular,
    kind: names.kind,
    listKind: names.listKind,
    namespaced: spec.scope === 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    statusSubresource: served.some((version) => version.subresources?.status !== undefined),
    builtin: false,
    tracksGeneration: true,
    schemas,
    verbs: CUSTOM_RESOURCE_VERBS,
    etcdPrefix: `${spec.group}/${names.plural}`,
    allowUnconditionalUpdate: false,
    storageVersionHash: storageVersionHash(spec.group, storageVersion(spec) ?? '', names.kind),
    ...(scale === undefined ? {} : { scale }),
    customResource: spec,
  };
}
