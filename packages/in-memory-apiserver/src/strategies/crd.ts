import type { KubeObject } from '@scoby/kube-objects';
import type { Cluster } from '../cluster.ts';
import { timestamp } from '../cluster.ts';
import { acceptedNames, crdSpec, storageVersion } from '../crd-type.ts';
import { isJsonMap } from '../json.ts';
import type { Cause } from '@scoby/structural-schema';
import type { TypeStrategy } from './strategy.ts';
import { acceptNames, type CrdNames } from '../validation/crd-names.ts';
import { validateCrdSchemas } from '../validation/crd-schema.ts';

const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

interface Condition {
  type: string;
  status: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

function conditionsOf(status: unknown): Condition[] {
  return isJsonMap(status) && Array.isArray(status.conditions) ? (status.conditions as Condition[]) : [];
}

/** A condition, keeping its transition time when its status did not change. */
function condition(
  previous: Condition[],
  now: string,
  next: Omit<Condition, 'lastTransitionTime'>,
): Condition {
  const before = previous.find((candidate) => candidate.type === next.type);
  const since = before?.status === next.status ? before.lastTransitionTime : now;
  return {
    type: next.type,
    status: next.status,
    lastTransitionTime: since,
    reason: next.reason,
    message: next.message,
  };
}

/** The accepted names of the other CRDs of the group, which this one's names may not take. */
function namesOfOthers(crd: KubeObject, cluster: Cluster): Partial<CrdNames>[] {
  const group = crdSpec(crd).group;
  return cluster.store
    .list(CRD_KEY)
    .filter((other) => other.metadata.name !== crd.metadata.name && crdSpec(other).group === group)
    .map((other) =>
      isJsonMap(other.status) && isJsonMap(other.status.acceptedNames) ? other.status.acceptedNames : {},
    );
}

/**
 * The status the naming and establishing controllers give a CRD: its names accepted unless another CRD
 * of the group holds them, Established once they are (a CRD established before stays so).
 */
function namedStatus(crd: KubeObject, cluster: Cluster, previous: unknown): Record<string, unknown> {
  const spec = crdSpec(crd);
  const before = isJsonMap(previous) && isJsonMap(previous.acceptedNames) ? previous.acceptedNames : {};
  const naming = acceptNames(acceptedNames(spec), before, namesOfOthers(crd, cluster));
  const now = timestamp(cluster.now());
  const conditions = conditionsOf(previous);
  const established = conditions.find((candidate) => candidate.type === 'Established')?.status === 'True';
  const storage = storageVersion(spec);
  const stored = isJsonMap(previous) && Array.isArray(previous.storedVersions) ? previous.storedVersions : [];
  return {
    ...(isJsonMap(previous) ? previous : {}),
    conditions: [
      condition(conditions, now, {
        type: 'NamesAccepted',
        status: naming.conflict ? 'False' : 'True',
        reason: naming.conflict?.reason ?? 'NoConflicts',
        message: naming.conflict?.message ?? 'no conflicts found',
      }),
      established || naming.conflict === undefined
        ? condition(conditions, now, {
            type: 'Established',
            status: 'True',
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
          })
        : condition(conditions, now, {
            type: 'Established',
            status: 'False',
            reason: 'NotAccepted',
            message: 'not all names are accepted',
          }),
    ],
    // Kind and plural are always written, the others only when set.
    acceptedNames: { plural: '', kind: '', ...naming.accepted },
    storedVersions: storage === undefined || stored.includes(storage) ? stored : [...stored, storage],
  };
}

/** Whether a CRD is served: its Established condition is True. */
export function isEstablished(crd: KubeObject): boolean {
  return conditionsOf(crd.status).some(
    (candidate) => candidate.type === 'Established' && candidate.status === 'True',
  );
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
  return [...causes, ...validateCrdSchemas(versions)];
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
      status: namedStatus(object, cluster, undefined),
    };
  },
  prepareForUpdate(next: KubeObject, current: KubeObject, cluster: Cluster): KubeObject {
    return { ...next, status: namedStatus(next, cluster, current.status) };
  },
};
