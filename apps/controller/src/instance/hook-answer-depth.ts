/**
 * How deep a pre-reconcile answer may nest what Scoby writes back to the cluster (the status and the
 * children). The API server accepts JSON nested up to 10,000 levels, but the controller clones,
 * compares, prunes and serialises these values recursively, which a few thousand levels overflow
 * (docs/spec/hooks-v1.md leaves the limit open). Real statuses and workloads stay far below 100 levels.
 */
export const MAX_ANSWER_DEPTH = 100;

/** True when objects and arrays in `value` nest deeper than `limit` levels (`{}` is one). Iterative. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return false;
}

/** The part of a pre-reconcile answer nested too deeply, as the detail of an invalid response. */
export function tooDeepAnswerPart(
  status: unknown,
  children: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const parts: [string, unknown][] = [
    ['object.status', status],
    ...Object.entries(children ?? {}).map(([key, child]): [string, unknown] => [`children.${key}`, child]),
  ];
  const deep = parts.find(([, part]) => nestedDeeperThan(part, MAX_ANSWER_DEPTH));
  return deep && `${deep[0]} is nested more than ${MAX_ANSWER_DEPTH} levels deep`;
}
