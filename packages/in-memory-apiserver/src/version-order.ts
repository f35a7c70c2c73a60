const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kubernetes version priority: GA before beta before alpha, higher numbers first, and versions that do
 * not look like Kubernetes versions last in lexical order. Used to pick the preferred version of a group.
 */
export function compareVersionPriority(a: string, b: string): number {
  const rank = (version: string): [number, number, number] | undefined => {
    const match = KUBE_VERSION.exec(version);
    if (!match) return undefined;
    const stability = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
    return [stability, Number(match[1]), Number(match[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (ra && rb) {
    for (let i = 0; i < 3; i++) {
      const diff = (rb[i] ?? 0) - (ra[i] ?? 0);
      if (diff !== 0) return diff;
    }
    return 0;
  }
  if (ra) return -1;
  if (rb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
