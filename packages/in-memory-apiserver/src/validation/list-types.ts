/**
 * `x-kubernetes-list-type: set` and `map` lists may not hold duplicates: a set compares whole items, a
 * map the values of its x-kubernetes-list-map-keys (apiextensions' structural/listtype validation).
 */
import { deepEqual, type Cause, type JSONSchemaProps } from '@scoby/structural-schema';
import { duplicate } from './field-errors.ts';
import { mapKeysOf, walkSchema } from './schema-walk.ts';

function duplicatesOf(list: readonly unknown[], identity: (item: unknown) => unknown, path: string): Cause[] {
  const seen: unknown[] = [];
  const causes: Cause[] = [];
  list.forEach((item, index) => {
    const id = identity(item);
    if (seen.some((other) => deepEqual(other, id))) causes.push(duplicate(`${path}[${index}]`, id));
    else seen.push(id);
  });
  return causes;
}

export function validateListTypes(schema: JSONSchemaProps, value: unknown): Cause[] {
  const causes: Cause[] = [];
  walkSchema(schema, value, undefined, '', (node) => {
    if (!Array.isArray(node.value)) return;
    const listType = node.schema['x-kubernetes-list-type'];
    if (listType === 'set') causes.push(...duplicatesOf(node.value, (item) => item, node.path));
    else if (listType === 'map')
      causes.push(...duplicatesOf(node.value, (item) => mapKeysOf(node.schema, item), node.path));
  });
  return causes;
}
