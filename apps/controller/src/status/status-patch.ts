/**
 * The status write (docs/spec/children-and-status.md §8.11): one JSON merge patch from the stored status to the
 * desired one, or nothing when they are equal.
 */
import jsonMergePatch from 'json-merge-patch';

/** `{status: <patch>}` to send to the status subresource, or undefined when nothing changed. */
export function statusMergePatch(
  stored: unknown,
  desired: Record<string, unknown>,
): { status: unknown } | undefined {
  const before = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
  const patch = jsonMergePatch.generate(before, desired);
  return patch === undefined ? undefined : { status: patch };
}
