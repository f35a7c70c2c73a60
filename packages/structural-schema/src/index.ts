/**
 * How the API server turns a decoded custom resource into the stored one: prune unknown fields, drop
 * non-nullable nulls, apply defaults, then validate (schema, then embedded resources).
 */
import { defaultInPlace } from './defaults.ts';
import { validateEmbeddedResources } from './embedded.ts';
import { deepClone } from './json-value.ts';
import { pruneNonNullableNullsInPlace } from './nulls.ts';
import { pruneInPlace } from './prune.ts';
import type { Cause, JSONSchemaProps } from './types.ts';
import { validateNode } from './validate.ts';

export type { Cause, CauseType, JSONSchemaProps } from './types.ts';
export { defaultValues } from './defaults.ts';
export { formatInvalidMessage } from './field-errors.ts';

/**
 * The value as the API server would store it (pruned and defaulted) and the field errors that make
 * it rejected (422) when there are any. `root: true` for a whole resource: its apiVersion, kind and
 * metadata are kept, and only metadata.name/generateName are checked against the schema.
 */
export function pruneAndValidate(
  schema: JSONSchemaProps,
  value: unknown,
  options: { root: boolean },
): { value: unknown; causes: Cause[] } {
  const stored = deepClone(value);
  pruneInPlace(stored, schema, options.root);
  pruneNonNullableNullsInPlace(stored, schema);
  defaultInPlace(stored, schema);
  const causes = [
    ...validateNode(schema, stored, '', options.root),
    ...validateEmbeddedResources(schema, stored),
  ];
  return { value: stored, causes };
}

/** Field-error and name helpers the API server's selectors share with schema validation. */
export { aggregateText, invalid, invalidRendered, WHOLE_OBJECT } from './field-errors.ts';
export { goPlain, goQuote, goStringSlice } from './go-format.ts';
export { isQualifiedName, isValidLabelValue } from './name-validation.ts';
export { deepClone, deepEqual, isJsonObject, type JsonMap } from './json-value.ts';
