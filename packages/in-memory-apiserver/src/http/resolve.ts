import type { Cluster } from '../cluster.ts';
import type { RequestFacts } from '../faults.ts';
import type { Verb } from '../resource-type.ts';
import { methodNotAllowed, ok, resourceNotFound, type Outcome } from '../status.ts';
import type { Route } from './route.ts';

export type ResourceRoute = Extract<Route, { kind: 'resource' }>;

/** A resource request with its type resolved and its verb named, ready for faults and dispatch. */
export interface ResolvedRequest extends RequestFacts {
  version: string;
}

function verbOf(method: string, named: boolean, watch: boolean): Verb | undefined {
  switch (method) {
    case 'GET':
      return watch ? 'watch' : named ? 'get' : 'list';
    case 'POST':
      return named ? undefined : 'create';
    case 'PUT':
      return named ? 'update' : undefined;
    case 'PATCH':
      return named ? 'patch' : undefined;
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

export function isWatch(query: URLSearchParams): boolean {
  const watch = query.get('watch');
  return watch === 'true' || watch === '1';
}

export function resolveRequest(
  cluster: Cluster,
  method: string,
  route: ResourceRoute,
  query: URLSearchParams,
): Outcome<ResolvedRequest> {
  const type = cluster.registry.find(route.group, route.version, route.plural);
  if (type === undefined) return resourceNotFound();
  if (route.namespace !== undefined && !type.namespaced) return resourceNotFound();
  const served =
    (route.subresource === 'status' && type.statusSubresource) ||
    (route.subresource === 'scale' && type.scale !== undefined);
  if (route.subresource !== undefined && !served) return resourceNotFound();
  const verb = verbOf(method, route.name !== undefined, isWatch(query));
  if (verb === undefined || (route.subresource === undefined && !type.verbs.includes(verb)))
    return methodNotAllowed();
  if (verb === 'create' && type.namespaced && route.namespace === undefined) return methodNotAllowed();
  if (route.subresource !== undefined && verb !== 'get' && verb !== 'update' && verb !== 'patch')
    return methodNotAllowed();
  return ok({
    verb,
    type,
    version: route.version,
    subresource: route.subresource,
    namespace: route.namespace,
    name: route.name,
  });
}
