import type { UriReference } from './uri-reference.ts';

/**
 * docs/spec/address.md §4: `scheme "://" host [":" port] path ["?" query] ["#" fragment]`. Components that are
 * absent are left out, so a relative reference serialises back to itself. The base's userinfo is
 * written when present, since merging keeps it (§5).
 */
export function serializeUri(uri: UriReference): string {
  let text = uri.scheme === undefined ? '' : `${uri.scheme}:`;
  if (uri.authority !== undefined) {
    const { userinfo, host, port } = uri.authority;
    text += `//${userinfo === undefined ? '' : `${userinfo}@`}${host}${port === undefined ? '' : `:${port}`}`;
  }
  // After an authority a path must be empty or absolute (RFC 3986 §3.3).
  const needsSlash = uri.authority !== undefined && uri.path !== '' && !uri.path.startsWith('/');
  text += needsSlash ? `/${uri.path}` : uri.path;
  if (uri.query !== undefined) text += `?${uri.query}`;
  if (uri.fragment !== undefined) text += `#${uri.fragment}`;
  return text;
}
