/**
 * RFC 3986 URI references (docs/spec/address.md §4). Hand-written because the WHATWG parser behind
 * `new URL` rejects the empty-host forms (`http://:8080/v1`, `//:8090`, `https://`) that
 * destinations rely on.
 */

export interface UriAuthority {
  userinfo?: string;
  /** Reg-name, IPv4 address, or IP literal kept with its brackets (`[::1]`); may be empty. */
  host: string;
  /** Digits only; an empty port (`host:`) is stored as absent. */
  port?: string;
}

export interface UriReference {
  scheme?: string;
  authority?: UriAuthority;
  path: string;
  query?: string;
  fragment?: string;
}

export type UriParseResult = { ok: true; uri: UriReference } | { ok: false; reason: string };
