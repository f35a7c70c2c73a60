/**
 * Schema-level checks (types, required fields), normally already enforced by the API server through
 * the CRD. Form-factor blocks are left to their form factor (row 3 of docs/spec/registration.md §4), so that
 * plugin and built-in blocks are reported the same way.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Problem } from './problem.ts';
import { FORM_FACTOR_PATH, problem, ValidationReason } from './problem.ts';
import { validate } from './shape-validator.generated.ts';

/** Compiled ahead of time from SHAPE_SCHEMA (shape-schema.ts) by `npm run generate`. */
const validateShape = validate as ValidateFunction;

export function schemaProblems(registration: unknown): Problem[] {
  if (validateShape(registration)) return [];
  return (validateShape.errors ?? [])
    .map(toProblem)
    .filter((found) => !found.path.startsWith(`${FORM_FACTOR_PATH}.`));
}

function toProblem(error: ErrorObject): Problem {
  const path = fieldPath(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const missing = String(error.params['missingProperty']);
      return problem(path === '' ? missing : `${path}.${missing}`, ValidationReason.InvalidSpec, 'required');
    }
    case 'type': {
      const types = String(error.params['type']).split(',');
      return problem(
        path || 'registration',
        ValidationReason.InvalidSpec,
        `must be of type ${types.join(' or ')}`,
      );
    }
    case 'minLength':
      return problem(path, ValidationReason.InvalidSpec, 'must not be empty');
    default:
      return problem(path, ValidationReason.InvalidSpec, error.message ?? 'invalid');
  }
}

/** "/spec/hook/capabilities/1" → "spec.hook.capabilities[1]". */
function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce(
      (path, segment) =>
        /^\d+$/.test(segment) ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`,
      '',
    );
}
