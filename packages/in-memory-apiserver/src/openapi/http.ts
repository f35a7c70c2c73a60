import type { Reply } from '../status.ts';
import type { OpenApiDocuments, SerializedDocument } from './documents.ts';

/** /openapi/v2, /openapi/v3 and /openapi/v3/<group-version path>. */
export type OpenApiRoute = { version: 'v2' } | { version: 'v3'; path: string | undefined };

const NOT_ACCEPTABLE: Reply = { code: 406, body: '406 - Not Acceptable\n' };

/**
 * Whether the client takes JSON: clients ask for protobuf first (client-go's /openapi/v2 reader asks for
 * nothing else), which this server does not write.
 */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept
    .split(',')
    .map((range) => range.split(';')[0]?.trim().toLowerCase() ?? '')
    .some((range) => range === 'application/json' || range === 'application/*' || range === '*/*');
}

function documentReply(document: SerializedDocument, cacheControl: Record<string, string>): Reply {
  return {
    code: 200,
    body: document.text,
    headers: { 'Content-Type': 'application/json', ETag: `"${document.hash}"`, ...cacheControl },
  };
}

const NO_CACHE = { 'Cache-Control': 'no-cache, private' };

/**
 * As kube-apiserver: a group-version document asked for by its current hash may be cached for good; an
 * outdated hash is redirected (301) to the current one.
 */
export function openApiReply(
  documents: OpenApiDocuments,
  route: OpenApiRoute,
  query: URLSearchParams,
  accept: string | undefined,
  now: Date,
): Reply {
  if (!acceptsJson(accept)) return NOT_ACCEPTABLE;
  if (route.version === 'v2') return documentReply(documents.v2(), NO_CACHE);
  if (route.path === undefined) {
    return { code: 200, body: documents.index(), headers: NO_CACHE };
  }
  const document = documents.v3(route.path);
  if (document === undefined) return { code: 404, body: '404 page not found\n' };
  const hash = query.get('hash');
  if (hash === null || hash === '') return documentReply(document, NO_CACHE);
  if (hash !== document.hash) {
    return {
      code: 301,
      body: '',
      headers: { Location: `/openapi/v3/${route.path}?hash=${document.hash}`, ...NO_CACHE },
    };
  }
  const expires = new Date(now.getTime() + 365 * 24 * 3600 * 1000).toUTCString().replace('GMT', 'UTC');
  return documentReply(document, { 'Cache-Control': 'public, immutable', Expires: expires });
}
