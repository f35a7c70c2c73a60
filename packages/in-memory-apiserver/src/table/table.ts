/**
 * Table responses (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), as kubectl get asks for:
 * the columns and cells kube-apiserver's printers give, each row with the object's metadata
 * (`includeObject=Metadata`, the default), the whole object (`Object`) or nothing (`None`).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { kubeOpenApiData, type TableColumnDefinition } from '../openapi/kube-openapi-data.ts';
import type { ResourceType } from '../resource-type.ts';
import type { Reply } from '../status.ts';
import { builtinCells, type Cell } from './builtin-printers.ts';
import { customCells, customColumnDefinitions, printerColumns } from './custom-columns.ts';

type TableVersion = 'v1' | 'v1beta1';

/** The Table version the first acceptable media range asks for, undefined when it asks for plain JSON. */
export function requestedTable(accept: string | undefined): TableVersion | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [mediaType, ...parameters] = range.split(';').map((part) => part.trim());
    const params = Object.fromEntries(
      parameters.map((parameter) => parameter.split('=').map((side) => side.trim())),
    );
    if (mediaType !== 'application/json' && mediaType !== '*/*' && mediaType !== 'application/*') continue;
    if (params.as === undefined) return undefined;
    if (
      params.as === 'Table' &&
      params.g === 'meta.k8s.io' &&
      (params.v === 'v1' || params.v === 'v1beta1')
    ) {
      return params.v;
    }
  }
  return undefined;
}

function builtinColumns(type: ResourceType): TableColumnDefinition[] {
  const columns = kubeOpenApiData().tableColumns[`${type.group}/${type.plural}`];
  if (columns === undefined) throw new Error(`no Table columns captured for ${type.group}/${type.plural}`);
  return columns;
}

/** The descriptions of `Name` and of the creation timestamp, as every printer uses them. */
function metadataColumns(): { name: TableColumnDefinition; creationTimestampDescription: string } {
  const deployments = kubeOpenApiData().tableColumns['apps/deployments']!;
  return {
    name: deployments.find((column) => column.name === 'Name')!,
    creationTimestampDescription: deployments.find((column) => column.name === 'Age')!.description,
  };
}

interface Printing {
  columns: TableColumnDefinition[];
  cells(object: KubeObject): Cell[];
}

function printing(type: ResourceType, version: string, now: Date): Printing {
  if (type.customResource === undefined) {
    return {
      columns: builtinColumns(type),
      cells: (object) => builtinCells(type.group, type.plural, object, now),
    };
  }
  const { name, creationTimestampDescription } = metadataColumns();
  const columns = printerColumns(type, version, creationTimestampDescription);
  return {
    columns: [name, ...customColumnDefinitions(columns)],
    cells: (object) => customCells(columns, object, now),
  };
}

/** The object of a row; `None` leaves an empty RawExtension, which Go writes as null. */
function rowObject(object: KubeObject, include: string, tableVersion: TableVersion): object | null {
  if (include === 'None') return null;
  if (include === 'Object') return object;
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `meta.k8s.io/${tableVersion}`,
    metadata: object.metadata,
  };
}

interface ListBody {
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: KubeObject[];
}

/** The Table of a get or list answer. */
export function tableOf(
  type: ResourceType,
  version: string,
  body: unknown,
  query: URLSearchParams,
  tableVersion: TableVersion,
  now: Date,
): Reply {
  const { columns, cells } = printing(type, version, now);
  const include = query.get('includeObject') ?? 'Metadata';
  const isList = Array.isArray((body as ListBody).items);
  const objects = isList ? (body as ListBody).items : [body as KubeObject];
  const metadata = isList
    ? (body as ListBody).metadata
    : { resourceVersion: (body as KubeObject).metadata.resourceVersion };
  return {
    code: 200,
    body: {
      kind: 'Table',
      apiVersion: `meta.k8s.io/${tableVersion}`,
      metadata,
      columnDefinitions: columns,
      rows: objects.map((object) => ({
        cells: cells(object),
        object: rowObject(object, include, tableVersion),
      })),
    },
  };
}

interface WatchEvent {
  type: string;
  object: unknown;
}

/**
 * Watch events as Tables when the client asks for them (kubectl get -w): the column definitions with
 * the first event only, later ones without (null), as kube-apiserver's watch encoder does; bookmarks
 * and errors as they are.
 */
export function tableWatchEvents(
  type: ResourceType,
  version: string,
  query: URLSearchParams,
  accept: string | undefined,
  now: () => Date,
): (event: WatchEvent) => WatchEvent {
  const tableVersion = requestedTable(accept);
  if (tableVersion === undefined) return (event) => event;
  let headers = true;
  return (event) => {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return event;
    const table = tableOf(type, version, event.object, query, tableVersion, now()).body as Record<
      string,
      unknown
    >;
    const shown = headers ? table : { ...table, columnDefinitions: null };
    headers = false;
    return { type: event.type, object: shown };
  };
}
