/** An integer in digits without a leading zero: how kube-apiserver writes a resourceVersion. */
const INTEGER = /^(?:0|[1-9][0-9]*)$/;

/**
 * The order of two resourceVersions of one object (docs/spec/children-and-status.md §9): negative when
 * `a` is older, positive when newer, 0 when equal; undefined when either is not an integer, whose
 * order a client cannot know. kube-apiserver's versions are etcd revisions, integers that only grow,
 * which clients may compare from Kubernetes 1.35 (KEP-5504). Compared as text, by length and then
 * digit by digit, so that no size is assumed.
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!INTEGER.test(a) || !INTEGER.test(b)) return undefined;
  if (a.length !== b.length) return a.length - b.length;
  return a === b ? 0 : a < b ? -1 : 1;
}
