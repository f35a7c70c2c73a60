import { pruneAndValidate, type Cause, type JSONSchemaProps } from '../src/index.ts';

/** The causes of validating `value` as `spec.<field>` of a resource whose spec has only that field. */
export function causesAt(field: string, schema: JSONSchemaProps, value: unknown): Cause[] {
  const root: JSONSchemaProps = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { [field]: schema } } },
  };
  return pruneAndValidate(root, { spec: { [field]: value } }, { root: true }).causes;
}

export const invalid = (field: string, message: string): Cause => ({
  type: 'FieldValueInvalid',
  field,
  message,
});
export const typeInvalid = (field: string, message: string): Cause => ({
  type: 'FieldValueTypeInvalid',
  field,
  message,
});
