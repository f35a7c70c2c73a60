/**
 * ObjectMeta checks every write goes through (k8s.io/apimachinery/pkg/api/validation
 * ValidateObjectMetaAccessor, plus the finalizer rule core types add): the name and generateName by the
 * resource's name rule, labels, annotations, owner references and finalizers, with kube-apiserver's
 * messages. Label, annotation and finalizer errors name the whole field, not the key, as kube's do.
 */
import type { KubeObject, OwnerReference } from '@scoby/kube-objects';
import { isQualifiedName, isValidLabelValue, type Cause } from '@scoby/structural-schema';
import { nameErrors } from '../names.ts';
import type { ResourceType } from '../resource-type.ts';
import { invalidRendered, invalidValue, tooLong } from './field-errors.ts';

/** kube-apiserver's TotalAnnotationSizeLimitB: keys and values together. */
const ANNOTATIONS_LIMIT_BYTES = 256 * 1024;
const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);
const UTF8 = new TextEncoder();

/** Types validated by kube's core ObjectMeta rules, which add the finalizer rule (not Leases, CRDs, custom resources). */
const OWN_META_RULES: ReadonlySet<string> = new Set(['coordination.k8s.io', 'apiextensions.k8s.io']);
const KUBE_FINALIZER_RULE = (type: ResourceType): boolean => type.builtin && !OWN_META_RULES.has(type.group);

function entries(value: unknown): [string, unknown][] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
}

function labelCauses(labels: unknown): Cause[] {
  const field = 'metadata.labels';
  return entries(labels).flatMap(([key, value]) => [
    ...isQualifiedName(key).map((message) => invalidValue(field, key, message)),
    ...(typeof value === 'string' ? isValidLabelValue(value) : []).map((message) =>
      invalidValue(field, value, message),
    ),
  ]);
}

function annotationCauses(annotations: unknown): Cause[] {
  const field = 'metadata.annotations';
  const pairs = entries(annotations);
  const causes = pairs.flatMap(([key]) =>
    isQualifiedName(key.toLowerCase()).map((message) => invalidValue(field, key, message)),
  );
  const size = pairs.reduce(
    (total, [key, value]) => total + UTF8.encode(key).length + UTF8.encode(String(value)).length,
    0,
  );
  if (size > ANNOTATIONS_LIMIT_BYTES) causes.push(tooLong(field, ANNOTATIONS_LIMIT_BYTES));
  return causes;
}

function inStructOrder(reference: OwnerReference): Partial<OwnerReference> {
  const { apiVersion, kind, name, uid, controller, blockOwnerDeletion } = reference;
  return { apiVersion, kind, name, uid, controller, blockOwnerDeletion };
}

function ownerReferenceCauses(references: readonly OwnerReference[]): Cause[] {
  const field = 'metadata.ownerReferences';
  const causes: Cause[] = [];
  const controllers: string[] = [];
  for (const reference of references) {
    const apiVersion = reference.apiVersion ?? '';
    const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
    if (version === '')
      causes.push(invalidValue(`${field}.apiVersion`, apiVersion, 'version must not be empty'));
    for (const key of ['kind', 'name', 'uid'] as const) {
      if (!reference[key])
        causes.push(invalidValue(`${field}.${key}`, reference[key] ?? '', 'must not be empty'));
    }
    if (reference.controller === true) controllers.push(`${reference.kind}/${reference.name}`);
  }
  if (controllers.length > 1) {
    causes.push(
      invalidRendered(
        field,
        // Go's struct order, not sorted like a map's keys.
        JSON.stringify(references.map(inStructOrder)),
        `Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`,
      ),
    );
  }
  return causes;
}

function finalizerCauses(type: ResourceType, finalizers: readonly string[]): Cause[] {
  const field = 'metadata.finalizers';
  const causes = finalizers.flatMap((finalizer, index) => {
    const qualified = isQualifiedName(finalizer).map((message) => invalidValue(field, finalizer, message));
    // Types under kube's core rules refuse a name without a domain unless standard, at the item's index.
    const standard =
      KUBE_FINALIZER_RULE(type) && !finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer)
        ? [
            invalidValue(
              `${field}[${index}]`,
              finalizer,
              'name is neither a standard finalizer name nor is it fully qualified',
            ),
          ]
        : [];
    return [...qualified, ...standard];
  });
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion'))
    causes.push(
      invalidValue(field, finalizers, 'finalizer orphan and foregroundDeletion cannot be both set'),
    );
  return causes;
}

export function validateObjectMeta(type: ResourceType, object: KubeObject): Cause[] {
  const { metadata } = object;
  const generateName = metadata.generateName ?? '';
  return [
    ...(generateName === ''
      ? []
      : nameErrors(type, generateName, true).map((message) =>
          invalidValue('metadata.generateName', generateName, message),
        )),
    ...nameErrors(type, metadata.name ?? '', false).map((message) =>
      invalidValue('metadata.name', metadata.name ?? '', message),
    ),
    ...labelCauses(metadata.labels),
    ...annotationCauses(metadata.annotations),
    ...ownerReferenceCauses(metadata.ownerReferences ?? []),
    ...finalizerCauses(type, metadata.finalizers ?? []),
  ];
}
