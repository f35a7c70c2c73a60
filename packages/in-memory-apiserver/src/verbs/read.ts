import type { KubeObject } from '@scoby/kube-objects';
import { atVersion, type Cluster } from '../cluster.ts';
import { groupVersion, keyOf, type ResourceType } from '../resource-type.ts';
import { parseFieldSelector, parseLabelSelector, selectableFields } from '../selectors/index.ts';
import { badRequest, fail, notFound, ok, type Outcome } from '../status.ts';

export interface ObjectFilter {
  matches(object: KubeObject): boolean;
}

/** labelSelector and fieldSelector (the fields the resource can be selected by) of a list or watch. */
export function parseFilter(
  query: URLSearchParams,
  type: ResourceType,
  version: string,
): Outcome<ObjectFilter> {
  const labels = parseLabelSelector(query.get('labelSelector') ?? '');
  if (!labels.ok) return badRequest(`unable to parse requirement: ${labels.message}`);
  const fields = parseFieldSelector(query.get('fieldSelector') ?? '', selectableFields(type, version));
  if (!fields.ok) return badRequest(fields.message);
  return ok({ matches: (object) => labels.matches(object.metadata.labels) && fields.matches(object) });
}

export function getObject(
  cluster: Cluster,
  type: ResourceType,
  version: string,
  namespace: string | undefined,
  name: string,
): Outcome<KubeObject> {
  const object = cluster.store.get(keyOf(type), namespace, name);
  return object === undefined ? notFound(type, name) : ok(atVersion(type, version, object));
}

interface ContinueToken {
  rv: number;
  start: string;
}

function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

function decodeContinue(text: string): ContinueToken | undefined {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (typeof token === 'object' && token !== null && 'rv' in token && 'start' in token)
      return token as ContinueToken;
  } catch {
    // fall through: not a token of ours
  }
  return undefined;
}

function positionOf(object: KubeObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}

/** GET on a collection: filtered, in key order, paged with limit/continue; metadata.resourceVersion is the store's. */
export function listObjects(
  cluster: Cluster,
  type: ResourceType,
  version: string,
  namespace: string | undefined,
  query: URLSearchParams,
): Outcome<unknown> {
  const filter = parseFilter(query, type, version);
  if (!filter.ok) return filter;
  const continueText = query.get('continue');
  const token = continueText ? decodeContinue(continueText) : undefined;
  if (continueText && token === undefined)
    return badRequest('continue key is not valid: illegal base64 data at input byte 0');
  const limit = Number(query.get('limit') ?? 0);
  let items = cluster.store.list(keyOf(type), namespace).filter((object) => filter.value.matches(object));
  if (token !== undefined) items = items.filter((object) => positionOf(object) > token.start);
  const revision = token?.rv ?? cluster.store.resourceVersion;
  const metadata: Record<string, unknown> = { resourceVersion: String(cluster.store.resourceVersion) };
  // A custom resource list is unstructured: its storage sets `continue` even when there is no next page.
  if (!type.builtin) metadata.continue = '';
  if (limit > 0 && items.length > limit) {
    const last = items[limit - 1];
    metadata.continue = encodeContinue({ rv: revision, start: last ? positionOf(last) : '' });
    metadata.remainingItemCount = items.length - limit;
    items = items.slice(0, limit);
  }
  if (Number.isNaN(limit))
    return fail(400, 'BadRequest', `limit: Invalid value: "${query.get('limit') ?? ''}"`);
  return ok({
    kind: type.listKind,
    apiVersion: groupVersion(type.group, version),
    metadata,
    items: items.map((object) => atVersion(type, version, object)),
  });
}
