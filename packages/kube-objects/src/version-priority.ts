import { compareByteOrder } from './byte-order.ts';

/** apimachinery's shape of a Kubernetes version: vN, vNbetaM, vNalphaM. */
const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function rank(version: string): [number, number, number] | undefined {
  const match = KUBE_VERSION.exec(version);
  if (!match) return undefined;
  const stability = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
  return [stability, Number(match[1]), Number(match[3] ?? 0)];
}

/**
 * Kubernetes version priority (docs/spec/children-and-status.md §7.1): GA before beta before alpha, higher N
 * first, then higher M; names of other forms last, in byte order. Negative when `a` ranks higher.
 */
export function compareVersionPriority(a: string, b: string): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra && rb) return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
  if (ra) return -1;
  if (rb) return 1;
  return compareByteOrder(a, b);
}
