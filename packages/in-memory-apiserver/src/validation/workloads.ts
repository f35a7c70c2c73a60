/**
 * Deployment and StatefulSet validation (kube-apiserver's apps validation, the part that matters for
 * what is written to them): replicas not negative, a non-empty selector that matches the template's
 * labels, the pod template's containers; on update the immutable selector (Deployments) and the spec
 * fields a StatefulSet may not change.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { deepEqual, isJsonObject, type Cause, type JsonMap } from '@scoby/structural-schema';
import { labelSelectorFromObject, type LabelSelector } from '../selectors/index.ts';
import { forbidden, invalidValue, requiredValue } from './field-errors.ts';
import { podTemplateCauses } from './pod-template.ts';

function specOf(object: KubeObject): JsonMap {
  return isJsonObject(object.spec) ? object.spec : {};
}

function isEmptySelector(selector: JsonMap): boolean {
  const labels = isJsonObject(selector.matchLabels) ? Object.keys(selector.matchLabels) : [];
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  return labels.length === 0 && expressions.length === 0;
}

function selectorCauses(spec: JsonMap, kind: string): Cause[] {
  const causes: Cause[] = [];
  if (typeof spec.replicas === 'number' && spec.replicas < 0)
    causes.push(invalidValue('spec.replicas', spec.replicas, 'must be greater than or equal to 0'));
  const selector = spec.selector;
  if (!isJsonObject(selector)) causes.push(requiredValue('spec.selector', ''));
  else if (isEmptySelector(selector))
    causes.push(invalidValue('spec.selector', selector, `empty selector is invalid for ${kind}`));
  const template = isJsonObject(spec.template) ? spec.template : {};
  const metadata = isJsonObject(template.metadata) ? template.metadata : {};
  const labels = isJsonObject(metadata.labels) ? (metadata.labels as Record<string, string>) : undefined;
  const parsed = isJsonObject(selector)
    ? labelSelectorFromObject(selector as LabelSelector)
    : ({ ok: true, matches: () => false } as const);
  // An empty selector is its own error; it does not also fail to match.
  const empty = isJsonObject(selector) && isEmptySelector(selector);
  if (!empty && (!parsed.ok || !parsed.matches(labels ?? {}))) {
    causes.push(
      invalidValue(
        'spec.template.metadata.labels',
        labels ?? null,
        '`selector` does not match template `labels`',
      ),
    );
  }
  return [...causes, ...podTemplateCauses(spec.template, 'spec.template')];
}

export function validateDeployment(object: KubeObject): Cause[] {
  return selectorCauses(specOf(object), 'deployment');
}

export function validateDeploymentUpdate(next: KubeObject, current: KubeObject): Cause[] {
  const selector = specOf(next).selector;
  return deepEqual(selector, specOf(current).selector)
    ? []
    : [invalidValue('spec.selector', selector ?? null, 'field is immutable')];
}

export function validateStatefulSet(object: KubeObject): Cause[] {
  return selectorCauses(specOf(object), 'statefulset');
}

const STATEFULSET_MUTABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

export function validateStatefulSetUpdate(next: KubeObject, current: KubeObject): Cause[] {
  const fixed = (object: KubeObject) =>
    Object.fromEntries(Object.entries(specOf(object)).filter(([key]) => !STATEFULSET_MUTABLE.includes(key)));
  if (deepEqual(fixed(next), fixed(current))) return [];
  return [
    forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}
