import { isPlainObject } from '@scoby/kube-objects';

/**
 * The value at a path (segments starting with `spec`), or undefined when the path is absent (docs/spec/env.md §1):
 * a missing key, a null value, or a step through anything but an object. Own keys only, so `constructor`
 * and friends are never found on the prototype.
 */
export function valueAt(spec: Record<string, unknown>, segments: readonly string[]): unknown {
  let current: unknown = spec;
  for (let i = 1; i < segments.length; i++) {
    const key = segments[i] as string;
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current ?? undefined;
}
