import { parseUriReference } from './parse-uri.ts';
import type { Resolution } from './resolution.ts';
import { serializeUri } from './serialize-uri.ts';
import type { UriReference } from './uri-reference.ts';

type UriCheck = { ok: true; uri: UriReference } | { ok: false; message: string };

/** Parses a destination's `uri`. */
export function parseDestinationUri(uri: string): UriCheck {
  const parsed = parseUriReference(uri);
  return parsed.ok ? parsed : { ok: false, message: `invalid URI ${JSON.stringify(uri)}: ${parsed.reason}` };
}

/** Parses the `uri` that accompanies a `ref`: it must be valid and name no host (docs/spec/address.md §5). */
export function parseUriBesideRef(uri: string): UriCheck {
  const parsed = parseDestinationUri(uri);
  if (!parsed.ok) return parsed;
  if (parsed.uri.authority !== undefined && parsed.uri.authority.host !== '') {
    return {
      ok: false,
      message: `URI should not contain a host while also informing a Reference: ${JSON.stringify(uri)}`,
    };
  }
  return { ok: true, uri: parsed.uri };
}

/**
 * Applies a destination's `uri` to the base URL its `ref` resolved to (docs/spec/address.md §5): each
 * non-empty scheme, port, path and query of `uri` replaces the base's; userinfo and fragment of
 * `uri` are ignored.
 */
export function mergeUri(base: string, uri: string | undefined): Resolution {
  const adjustment = uri === undefined ? undefined : parseUriBesideRef(uri);
  if (adjustment !== undefined && !adjustment.ok) return adjustment;
  const parsedBase = parseUriReference(base);
  if (!parsedBase.ok) {
    return {
      ok: false,
      message: `resolved reference to ${JSON.stringify(base)} cannot be parsed: ${parsedBase.reason}`,
    };
  }
  const merged = adjustment === undefined ? parsedBase.uri : applyAdjustment(parsedBase.uri, adjustment.uri);
  return { ok: true, url: serializeUri(merged) };
}

function applyAdjustment(base: UriReference, adjustment: UriReference): UriReference {
  const merged: UriReference = { ...base };
  if (adjustment.scheme !== undefined) merged.scheme = adjustment.scheme;
  const port = adjustment.authority?.port;
  if (port !== undefined) merged.authority = { ...(base.authority ?? { host: '' }), port };
  if (adjustment.path !== '') merged.path = adjustment.path;
  if (adjustment.query !== undefined && adjustment.query !== '') merged.query = adjustment.query;
  return merged;
}
