/**
 * What kube-apiserver answers when a CRDRegistration is applied: every field error of the schema of
 * the CRDRegistration CRD at once, with the API server's own messages (reproduced by the structural
 * schema code the in-memory API server runs). `scoby validate` reports these first: the controller's
 * checks (docs/spec/registration.md §4) only ever see an object the API server stored.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { SCHEMA } from '@scoby/registration';
import { pruneAndValidate, type JSONSchemaProps } from '@scoby/structural-schema';
import type { FieldProblem } from './crd-checks.ts';

export function apiServerProblems(registration: KubeObject): FieldProblem[] {
  return pruneAndValidate(SCHEMA as JSONSchemaProps, registration, { root: true }).causes.map((cause) => ({
    path: cause.field,
    message: cause.message,
  }));
}
