/**
 * The Table columns of a custom resource (apiextensions-apiserver's tableconvertor): `Name`, then the
 * version's additionalPrinterColumns (or `Age` when it has none), each cell found by its JSONPath.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { JSONPath } from 'jsonpath-plus';
import type { PrinterColumn } from '../crd-spec.ts';
import type { TableColumnDefinition } from '../openapi/kube-openapi-data.ts';
import type { ResourceType } from '../resource-type.ts';
import type { Cell } from './builtin-printers.ts';
import { ageOf } from './human-duration.ts';

/** The version's columns; kube-apiserver serves an `Age` column when a CRD names none. */
export function printerColumns(
  type: ResourceType,
  version: string,
  creationTimestampDescription: string,
): PrinterColumn[] {
  const columns = type.customResource?.versions.find(
    (candidate) => candidate.name === version,
  )?.additionalPrinterColumns;
  if (columns !== undefined && columns.length > 0) return columns;
  return [
    {
      name: 'Age',
      type: 'date',
      description: creationTimestampDescription,
      jsonPath: '.metadata.creationTimestamp',
    },
  ];
}

export function customColumnDefinitions(columns: PrinterColumn[]): TableColumnDefinition[] {
  return columns.map((column) => ({
    name: column.name,
    type: column.type,
    format: column.format ?? '',
    description:
      column.description || `Custom resource definition column (in JSONPath format): ${column.jsonPath}`,
    priority: column.priority ?? 0,
  }));
}

/** The first value a kube JSONPath (`.status.conditions[?(@.type=="Ready")].status`) finds. */
function firstMatch(object: KubeObject, path: string): unknown {
  const results = JSONPath({ path: `$${path}`, json: object as object, wrap: true }) as unknown[];
  return results.length > 0 ? results[0] : undefined;
}

/** jsonpath's text of a value: strings as they are, other values as JSON. */
function printed(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** cellForJSONValue: a value of the column's type, null when it is missing or of another type. */
function cellOf(type: string, value: unknown, now: Date): Cell {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return printed(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      return Number.isNaN(Date.parse(value)) ? '<invalid>' : ageOf(value, now);
    default:
      return null;
  }
}

export function customCells(columns: PrinterColumn[], object: KubeObject, now: Date): Cell[] {
  return [
    object.metadata.name ?? '',
    ...columns.map((column) => cellOf(column.type, firstMatch(object, column.jsonPath), now)),
  ];
}
