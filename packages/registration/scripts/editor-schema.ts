/**
 * The JSON Schema of a CRDRegistration document for editors (YAML language server, IDEs): SCHEMA with
 * every field's own description, unknown keys flagged where the API server would prune them, and
 * apiVersion and kind fixed.
 */
import { SCHEMA } from '../src/schema.ts';
import type { SchemaNode } from '../src/schema-node.ts';
import { GROUP, KIND, VERSION } from '../src/types.ts';

type JsonSchema = { [keyword: string]: unknown };

function editorNode(node: SchemaNode): JsonSchema {
  const {
    properties,
    items,
    additionalProperties,
    nullable,
    title: _title,
    'x-kubernetes-preserve-unknown-fields': preserveUnknown,
    'x-kubernetes-int-or-string': intOrString,
    ...plain
  } = node;
  const schema: JsonSchema = { ...plain };
  if (intOrString === true) schema['type'] = ['integer', 'string'];
  if (nullable === true) schema['type'] = [node.type, 'null'];
  if (properties !== undefined) {
    schema['properties'] = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [key, editorNode(child)]),
    );
  }
  if (items !== undefined) schema['items'] = editorNode(items);
  if (additionalProperties !== undefined) schema['additionalProperties'] = editorNode(additionalProperties);
  else if (node.type === 'object' && properties !== undefined)
    schema['additionalProperties'] = preserveUnknown === true;
  return schema;
}

export const EDITOR_SCHEMA_ID = 'https://scoby-ts.github.io/scoby/schemas/crdregistration-v1alpha1.json';

export function editorSchema(): JsonSchema {
  const root = editorNode(SCHEMA);
  const properties = root['properties'] as Record<string, JsonSchema>;
  properties['apiVersion'] = { ...properties['apiVersion'], const: `${GROUP}/${VERSION}` };
  properties['kind'] = { ...properties['kind'], const: KIND };
  // Editors check what a person writes; the status is Scoby's.
  delete properties['status'];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: EDITOR_SCHEMA_ID,
    title: `${KIND} ${GROUP}/${VERSION}`,
    ...root,
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
  };
}

export function editorSchemaJson(): string {
  return `${JSON.stringify(editorSchema(), null, 2)}\n`;
}
