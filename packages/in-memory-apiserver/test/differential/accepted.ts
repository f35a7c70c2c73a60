/**
 * The accepted differences (accepted-differences.json): each names the request classes it covers (a
 * `verb:resource:mistake` pattern, `*` matching any part), the aspect that differs, the README entry and
 * the conformance test that asserts both servers' answers.
 */
import { readFileSync } from 'node:fs';

export type Aspect = 'code' | 'body' | 'watch' | 'state';

export interface AcceptedDifference {
  class: string;
  aspect: Aspect;
  /** The first differing path, when only a part of the body may differ (a prefix). */
  path?: string;
  /** The first differing path as a regular expression (watch event paths start with the event's index). */
  pathPattern?: string;
  /** A regular expression the reference's Status message must match (narrows a code difference). */
  referenceMessage?: string;
  /** The servers hold different objects afterwards: the rest of the sequence is not compared. */
  diverges?: boolean;
  reason: string;
  readme: string;
  test: string;
}

export const ACCEPTED: readonly AcceptedDifference[] = JSON.parse(
  readFileSync(new URL('./accepted-differences.json', import.meta.url), 'utf8'),
) as AcceptedDifference[];

function matches(pattern: string, requestClass: string): boolean {
  const want = pattern.split(':');
  const have = requestClass.split(':');
  return want.length === have.length && want.every((part, index) => part === '*' || part === have[index]);
}

function messageOf(body: unknown): string {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : '';
}

export function acceptedFor(
  requestClass: string,
  aspect: Aspect,
  path: string | undefined,
  reference: unknown,
  list: readonly AcceptedDifference[] = ACCEPTED,
): AcceptedDifference | undefined {
  return list.find(
    (entry) =>
      entry.aspect === aspect &&
      matches(entry.class, requestClass) &&
      (entry.path === undefined || (path ?? '').startsWith(entry.path)) &&
      (entry.pathPattern === undefined || new RegExp(entry.pathPattern).test(path ?? '')) &&
      (entry.referenceMessage === undefined || new RegExp(entry.referenceMessage).test(messageOf(reference))),
  );
}
