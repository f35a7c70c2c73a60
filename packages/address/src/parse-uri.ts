import { isIpLiteralContent } from './ip-literal.ts';
import { checkCharacters } from './uri-characters.ts';
import type { UriAuthority, UriParseResult, UriReference } from './uri-reference.ts';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const PORT = /^[0-9]*$/;

type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

interface RawComponents {
  scheme?: string;
  authority?: string;
  path: string;
  query?: string;
  fragment?: string;
}

/** Parses an RFC 3986 URI reference; a result value, never an exception. */
export function parseUriReference(text: string): UriParseResult {
  const { scheme, authority: authorityText, path, query, fragment } = splitComponents(text);
  if (scheme !== undefined && !SCHEME.test(scheme)) {
    return { ok: false, reason: `invalid scheme ${JSON.stringify(scheme)}` };
  }
  if (scheme === undefined && authorityText === undefined && /^[^/]*:/.test(path)) {
    return { ok: false, reason: 'the first path segment of a relative reference cannot contain ":"' };
  }
  const authority = authorityText === undefined ? undefined : parseAuthority(authorityText);
  if (authority !== undefined && !authority.ok) return authority;
  const invalid =
    checkCharacters(path, 'path') ??
    (query === undefined ? undefined : checkCharacters(query, 'query')) ??
    (fragment === undefined ? undefined : checkCharacters(fragment, 'fragment'));
  if (invalid !== undefined) return { ok: false, reason: invalid };

  const uri: UriReference = { path };
  if (scheme !== undefined) uri.scheme = scheme;
  if (authority !== undefined) uri.authority = authority.value;
  if (query !== undefined) uri.query = query;
  if (fragment !== undefined) uri.fragment = fragment;
  return { ok: true, uri };
}

/** The component split of RFC 3986 Appendix B, which accepts every string. */
function splitComponents(text: string): RawComponents {
  const [beforeFragment, fragment] = cutAt(text, '#');
  const [beforeQuery, query] = cutAt(beforeFragment, '?');
  const schemeEnd = beforeQuery.search(/[:/]/);
  const hasScheme = schemeEnd > 0 && beforeQuery.charAt(schemeEnd) === ':';
  const hierarchy = hasScheme ? beforeQuery.slice(schemeEnd + 1) : beforeQuery;
  const components: RawComponents = { path: hierarchy };
  if (hasScheme) components.scheme = beforeQuery.slice(0, schemeEnd);
  if (hierarchy.startsWith('//')) {
    const [authority, path] = cutAt(hierarchy.slice(2), '/');
    components.authority = authority;
    components.path = path === undefined ? '' : `/${path}`;
  }
  if (query !== undefined) components.query = query;
  if (fragment !== undefined) components.fragment = fragment;
  return components;
}

/** Splits at the first `separator`: the text before it and, when it occurs, the text after it. */
function cutAt(text: string, separator: string): [string, string | undefined] {
  const index = text.indexOf(separator);
  return index < 0 ? [text, undefined] : [text.slice(0, index), text.slice(index + 1)];
}

/** authority = [ userinfo "@" ] host [ ":" port ] */
function parseAuthority(text: string): Checked<UriAuthority> {
  const at = text.lastIndexOf('@');
  const userinfo = at < 0 ? undefined : text.slice(0, at);
  if (userinfo !== undefined) {
    const invalid = checkCharacters(userinfo, 'userinfo');
    if (invalid !== undefined) return { ok: false, reason: invalid };
  }
  const hostAndPort = splitHostAndPort(text.slice(at + 1));
  if (!hostAndPort.ok) return hostAndPort;
  const { host, port } = hostAndPort.value;
  if (port !== undefined && !PORT.test(port)) {
    return { ok: false, reason: `invalid port ${JSON.stringify(port)}: only digits are allowed` };
  }
  const authority: UriAuthority = { host };
  if (userinfo !== undefined) authority.userinfo = userinfo;
  if (port !== undefined && port !== '') authority.port = port;
  return { ok: true, value: authority };
}

function splitHostAndPort(text: string): Checked<{ host: string; port?: string }> {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return { ok: false, reason: `unclosed "[" in host ${JSON.stringify(text)}` };
    const host = text.slice(0, close + 1);
    if (!isIpLiteralContent(host.slice(1, -1))) {
      return { ok: false, reason: `invalid IP literal ${JSON.stringify(host)}` };
    }
    const rest = text.slice(close + 1);
    if (rest === '') return { ok: true, value: { host } };
    if (!rest.startsWith(':')) {
      return { ok: false, reason: `unexpected ${JSON.stringify(rest)} after IP literal ${host}` };
    }
    return { ok: true, value: { host, port: rest.slice(1) } };
  }
  const colon = text.indexOf(':');
  const host = colon < 0 ? text : text.slice(0, colon);
  const invalid = checkCharacters(host, 'host');
  if (invalid !== undefined) return { ok: false, reason: invalid };
  return { ok: true, value: colon < 0 ? { host } : { host, port: text.slice(colon + 1) } };
}
