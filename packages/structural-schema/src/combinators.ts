/**
 * allOf / anyOf / oneOf / not. go-openapi reports these as plain errors, which apiextensions turns
 * into an Invalid error on a nil path: `<nil>: Invalid value: "": "spec.x" must validate ...`.
 */
import { WHOLE_OBJECT, invalid } from './field-errors.ts';
import { goQuote } from './go-format.ts';
import type { Cause, JSONSchemaProps } from './types.ts';

function composite(path: string, text: string): Cause {
  return invalid(WHOLE_OBJECT, '', `${goQuote(path)} ${text}`);
}

/**
 * The errors reported for a failed anyOf/oneOf are those of the closest alternative; go-openapi picks
 * the one with most passing checks, approximated here by the first with fewest errors.
 */
function closest(results: Cause[][]): Cause[] {
  return (
    results.reduce<Cause[] | undefined>(
      (best, causes) => (best === undefined || causes.length < best.length ? causes : best),
      undefined,
    ) ?? []
  );
}

type NodeValidator = (schema: JSONSchemaProps, value: unknown, path: string) => Cause[];

export function validateCombinators(
  schema: JSONSchemaProps,
  value: unknown,
  path: string,
  validateNode: NodeValidator,
): Cause[] {
  const causes: Cause[] = [];
  const validate = (alternative: JSONSchemaProps): Cause[] => validateNode(alternative, value, path);
  if (schema.anyOf !== undefined && schema.anyOf.length > 0) {
    const results = schema.anyOf.map(validate);
    if (!results.some((r) => r.length === 0)) {
      causes.push(composite(path, 'must validate at least one schema (anyOf)'), ...closest(results));
    }
  }
  if (schema.oneOf !== undefined && schema.oneOf.length > 0) {
    const results = schema.oneOf.map(validate);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid === 0) {
      causes.push(
        composite(path, 'must validate one and only one schema (oneOf). Found none valid'),
        ...closest(results),
      );
    } else if (valid > 1) {
      causes.push(
        composite(path, `must validate one and only one schema (oneOf). Found ${valid} valid alternatives`),
      );
    }
  }
  if (schema.allOf !== undefined && schema.allOf.length > 0) {
    const results = schema.allOf.map(validate);
    const valid = results.filter((r) => r.length === 0).length;
    causes.push(...results.flat());
    if (valid < results.length) {
      const suffix = valid === 0 ? '. None validated' : '';
      causes.push(composite(path, `must validate all the schemas (allOf)${suffix}`));
    }
  }
  if (schema.not !== undefined && validate(schema.not).length === 0) {
    causes.push(composite(path, 'must not validate the schema (not)'));
  }
  return causes;
}
