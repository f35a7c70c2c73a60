/**
 * The problems `scoby validate` reports for one CRDRegistration: what kube-apiserver would refuse it
 * with, else the registration controller's own validation (docs/spec/registration.md §4, the messages of its status), and with CRDs given, the checks
 * against the registered CRD.
 */
import type { FormFactorCatalog } from '@scoby/registration';
import {
  API_VERSION,
  validateRegistration,
  ValidationReason,
  type CRDRegistrationSpec,
} from '@scoby/registration';
import type { KubeObject } from '@scoby/kube-objects';
import { apiServerProblems } from './api-server-problems.ts';
import { crdProblems, type FieldProblem } from './crd-checks.ts';

/** One line per problem: `<path>: <message>`. */
export function problemLines(problems: readonly FieldProblem[]): string[] {
  return problems.map((found) => `${found.path}: ${found.message}`);
}

export function registrationProblems(
  registration: KubeObject,
  catalog: FormFactorCatalog,
  crds: readonly KubeObject[] | undefined,
): FieldProblem[] {
  if (registration.apiVersion !== API_VERSION) {
    return [
      {
        path: 'apiVersion',
        message: `unsupported "${registration.apiVersion}" (supported: "${API_VERSION}")`,
      },
    ];
  }
  const refused = apiServerProblems(registration);
  const validation = validateRegistration(registration, catalog);
  const own = validation.ok
    ? []
    : validation.problems.map((found) => ({
        path: found.path,
        // Messages start with their path (docs/spec/registration.md §4).
        message: found.message.slice(found.path.length + 2),
      }));
  // The CRD checks walk the spec's lists, which only a spec of the schema's shape has.
  const shaped =
    validation.ok || validation.problems.every((found) => found.reason !== ValidationReason.InvalidSpec);
  const checked =
    crds === undefined || !shaped
      ? own
      : [...own, ...crdProblems(registration.spec as CRDRegistrationSpec, crds)];
  // Everything at once: what the API server refuses, then the controller's findings on other fields
  // (a field both reject is said once, in the API server's words, as kubectl apply shows it).
  const refusedPaths = new Set(refused.map((found) => found.path));
  return [...refused, ...checked.filter((found) => !refusedPaths.has(found.path))];
}
