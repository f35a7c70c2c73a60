import type { OpenApiRoute } from '../openapi/http.ts';

/** Where a request goes, from its path alone. */
export type Route =
  | { kind: 'version' }
  | { kind: 'health' }
  | { kind: 'api' }
  | { kind: 'apis' }
  | { kind: 'group'; group: string }
  | { kind: 'resources'; group: string; version: string }
  | {
      kind: 'resource';
      group: string;
      version: string;
      plural: string;
      namespace: string | undefined;
      name: string | undefined;
      subresource: string | undefined;
    }
  | { kind: 'openapi'; openapi: OpenApiRoute }
  | { kind: 'unknown' };

/** Subresources of a namespace that must not be read as a resource inside it. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function resourceRoute(group: string, version: string, parts: string[]): Route {
  let namespace: string | undefined;
  let rest = parts;
  if (parts[0] === 'namespaces' && parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2] ?? '')) {
    namespace = parts[1];
    rest = parts.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  if (plural === undefined || extra.length > 0) return { kind: 'unknown' };
  return { kind: 'resource', group, version, plural, namespace, name, subresource };
}

/** Parses /version, /healthz, /api[/v1/...], /apis[/<group>[/<version>/...]] the way the real RequestInfo resolver does. */
export function parseRoute(pathname: string): Route {
  const parts = pathname
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
  const [root, ...rest] = parts;
  if (root === 'version' && rest.length === 0) return { kind: 'version' };
  if ((root === 'healthz' || root === 'readyz' || root === 'livez') && rest.length === 0)
    return { kind: 'health' };
  if (root === 'openapi' && rest[0] === 'v2' && rest.length === 1)
    return { kind: 'openapi', openapi: { version: 'v2' } };
  if (root === 'openapi' && rest[0] === 'v3') {
    const path = rest.slice(1).join('/');
    return { kind: 'openapi', openapi: { version: 'v3', path: path === '' ? undefined : path } };
  }
  if (root === 'api') {
    const [version, ...resource] = rest;
    if (version === undefined) return { kind: 'api' };
    return resource.length === 0
      ? { kind: 'resources', group: '', version }
      : resourceRoute('', version, resource);
  }
  if (root === 'apis') {
    const [group, version, ...resource] = rest;
    if (group === undefined) return { kind: 'apis' };
    if (version === undefined) return { kind: 'group', group };
    return resource.length === 0
      ? { kind: 'resources', group, version }
      : resourceRoute(group, version, resource);
  }
  return { kind: 'unknown' };
}
