/**
 * Spec and status paths (docs/spec/env.md §2). One parser for the whole project: registration validation uses it
 * to reject malformed paths, rendering uses it to walk instances.
 */

export type PathRoot = 'spec' | 'status';

export type ParsedPath =
  { ok: true; segments: string[]; normalized: string } | { ok: false; message: string };

/** Normalises `$.spec.a`, `.spec.a` and `spec.a` to the segments ['spec', 'a']. */
export function parsePath(written: string, root: PathRoot): ParsedPath {
  let path = written;
  if (path.startsWith('$.')) path = path.slice(2);
  else if (path.startsWith('.')) path = path.slice(1);
  const segments = path.split('.');
  if (segments.some((segment) => segment === '')) {
    return { ok: false, message: `invalid path ${JSON.stringify(written)}: empty path segment` };
  }
  if (segments[0] !== root) {
    return { ok: false, message: `invalid path ${JSON.stringify(written)}: must start with "${root}."` };
  }
  if (segments.length < 2) {
    return {
      ok: false,
      message: `invalid path ${JSON.stringify(written)}: must name a field below "${root}"`,
    };
  }
  return { ok: true, segments, normalized: segments.join('.') };
}
