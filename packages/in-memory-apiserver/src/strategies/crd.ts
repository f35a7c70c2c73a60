import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { timestamp } from '../cluster.ts';
import { acceptedNames, crdSpec, storageVersion } from '../crd-type.ts';
import { isJsonMap } from '../json.ts';
import type { Cause } from '@scoby/structural-schema';
import type { TypeStrategy } from './strategy.ts';

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

function establishedStatus(crd: KubeObject, now: string): unknown {
  const spec = crdSpec(crd);
  const storage = storageVersion(spec);
  return {
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: now,
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: now,
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    acceptedNames: acceptedNames(spec),
    storedVersions: storage === undefined ? [] : [storage],
  };
}

function validateCrd(crd: KubeObject): Cause[] {
  const spec = crd.spec;
  if (!isJsonMap(spec)) return [{ type: 'FieldValueRequired', field: 'spec', message: 'Required value' }];
  const causes: Cause[] = [];
  const names = isJsonMap(spec.names) ? spec.names : {};
  if (typeof spec.group !== 'string' || spec.group === '')
    causes.push({ type: 'FieldValueRequired', field: 'spec.group', message: 'Required value' });
  if (typeof names.plural !== 'string' || names.plural === '')
    causes.push({ type: 'FieldValueRequired', field: 'spec.names.plural', message: 'Required value' });
  if (typeof names.kind !== 'string' || names.kind === '')
    causes.push({ type: 'FieldValueRequired', field: 'spec.names.kind', message: 'Required value' });
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    causes.push({
      type: 'FieldValueNotSupported',
      field: 'spec.scope',
      message: `Unsupported value: "${String(spec.scope ?? '')}": supported values: "Cluster", "Namespaced"`,
    });
  }
  const name = crd.metadata.name ?? '';
  if (
    typeof spec.group === 'string' &&
    typeof names.plural === 'string' &&
    name !== `${names.plural}.${spec.group}`
  ) {
    causes.push({
      type: 'FieldValueInvalid',
      field: 'metadata.name',
      message: `Invalid value: "${name}": must be spec.names.plural+"."+spec.group`,
    });
  }
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0)
    causes.push({
      type: 'FieldValueInvalid',
      field: 'spec.versions',
      message: 'Invalid value: []: must have exactly one version marked as storage version',
    });
  else if (versions.filter((version) => isJsonMap(version) && version.storage === true).length !== 1) {
    causes.push({
      type: 'FieldValueInvalid',
      field: 'spec.versions',
      message: `Invalid value: ${JSON.stringify(versions.map((version) => (isJsonMap(version) ? version.name : version)))}: must have exactly one version marked as storage version`,
    });
  }
  return causes;
}

/**
 * CustomResourceDefinitions are accepted and established at once, and carry the cleanup finalizer so
 * that deleting one first deletes its instances (see controllers/crd.ts).
 */
export const crdStrategy: TypeStrategy = {
  validate: validateCrd,
  prepareForCreate(object: KubeObject, cluster: Cluster): KubeObject {
    const finalizers = object.metadata.finalizers ?? [];
    return {
      ...object,
      metadata: {
        ...object.metadata,
        finalizers: finalizers.includes(CRD_CLEANUP_FINALIZER)
          ? finalizers
          : [...finalizers, CRD_CLEANUP_FINALIZER],
      },
      status: establishedStatus(object, timestamp(cluster.now())),
    };
  },
  prepareForUpdate(next: KubeObject, current: KubeObject): KubeObject {
    const status = isJsonMap(current.status) ? current.status : {};
    return { ...next, status: { ...status, acceptedNames: acceptedNames(crdSpec(next)) } };
  },
};
