/**
 * RFC 3986 URI references (address.md §4). Components are split with the regular expression of
 * RFC 3986 Appendix B; the authority, the scheme and the character repertoire are then checked against
 * the generic grammar. Deliberately not the WHATWG `URL` parser, which rejects empty hosts such as
 * "http://:8080/v1".
 */

export interface UriReference {
  /** Undefined when the reference has no `scheme:`. */
  scheme?: string;
  /** Undefined when the reference has no `//` authority; may be "" (`http://:8080`). */
  host?: string;
  userinfo?: string;
  port?: string;
  path: string;
  query?: string;
  fragment?: string;
}

export type ParsedUriReference = { ok: true; uri: UriReference } | { ok: false; reason: string };

const APPENDIX_B = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
/** unreserved, gen-delims, sub-delims and "%": every character that may appear in a URI. */
const URI_CHARACTER = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;
const PERCENT_ENCODED = /%(?![0-9A-Fa-f]{2})/;
const IP_LITERAL = /^(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+)$/;
const PORT = /^[0-9]*$/;

export function parseUriReference(text: string): ParsedUriReference {
  for (const character of text) {
    if (!URI_CHARACTER.test(character)) return invalid(`invalid character ${JSON.stringify(character)}`);
  }
  if (PERCENT_ENCODED.test(text)) return invalid('"%" must be followed by two hexadecimal digits');
  const match = APPENDIX_B.exec(text);
  if (match === null) return invalid('not a URI reference');
  const [, scheme, authority, path = '', query, fragment] = match;
  if (scheme !== undefined && !SCHEME.test(scheme))
    return invalid(`invalid scheme ${JSON.stringify(scheme)}`);
  if (/[[\]]/.test(`${path}${query ?? ''}${fragment ?? ''}`))
    return invalid('"[" and "]" may only enclose an IP literal host');
  const uri: UriReference = { path };
  if (scheme !== undefined) uri.scheme = scheme;
  if (query !== undefined) uri.query = query;
  if (fragment !== undefined) uri.fragment = fragment;
  if (authority === undefined) return { ok: true, uri };
  const parsedAuthority = parseAuthority(authority);
  if ('reason' in parsedAuthority) return invalid(parsedAuthority.reason);
  return { ok: true, uri: { ...uri, ...parsedAuthority } };
}

type Authority = Pick<UriReference, 'userinfo' | 'host' | 'port'>;

function parseAuthority(authority: string): Authority | { reason: string } {
  const at = authority.lastIndexOf('@');
  const userinfo = at < 0 ? undefined : authority.slice(0, at);
  const hostPort = authority.slice(at + 1);
  if (userinfo !== undefined && /[[\]@]/.test(userinfo))
    return { reason: `invalid user information ${JSON.stringify(userinfo)}` };
  const split = splitHostPort(hostPort);
  if ('reason' in split) return split;
  if (split.port !== undefined && !PORT.test(split.port))
    return { reason: `invalid port ${JSON.stringify(split.port)}` };
  const result: Authority = { host: split.host };
  if (userinfo !== undefined) result.userinfo = userinfo;
  if (split.port !== undefined) result.port = split.port;
  return result;
}

function splitHostPort(hostPort: string): { host: string; port?: string } | { reason: string } {
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return { reason: 'missing "]" after IP literal host' };
    const literal = hostPort.slice(1, close);
    if (!IP_LITERAL.test(literal))
      return { reason: `invalid IP literal host ${JSON.stringify(`[${literal}]`)}` };
    const rest = hostPort.slice(close + 1);
    if (rest === '') return { host: hostPort };
    if (!rest.startsWith(':')) return { reason: `unexpected ${JSON.stringify(rest)} after IP literal host` };
    return { host: hostPort.slice(0, close + 1), port: rest.slice(1) };
  }
  if (/[[\]]/.test(hostPort)) return { reason: '"[" and "]" may only enclose an IP literal host' };
  const colon = hostPort.indexOf(':');
  return colon < 0 ? { host: hostPort } : { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}

function invalid(reason: string): ParsedUriReference {
  return { ok: false, reason };
}
