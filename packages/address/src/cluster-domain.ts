export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';

/**
 * The cluster domain (docs/spec/address.md §3): a non-empty `CLUSTER_DOMAIN` value, else the `svc.` entry
 * of resolv.conf's first `search` line, else `cluster.local`. `resolvConf` is the file's text, or
 * undefined when it could not be read.
 */
export function detectClusterDomain(
  environmentValue: string | undefined,
  resolvConf: string | undefined,
): string {
  if (environmentValue !== undefined && environmentValue !== '') return environmentValue;
  return (
    (resolvConf === undefined ? undefined : clusterDomainFromResolvConf(resolvConf)) ?? DEFAULT_CLUSTER_DOMAIN
  );
}

/** `search shop.svc.cluster.local svc.cluster.local cluster.local` → `cluster.local`. */
function clusterDomainFromResolvConf(text: string): string | undefined {
  const searchLine = text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find(([keyword]) => keyword === 'search');
  const serviceEntry = searchLine?.slice(1).find((entry) => entry.startsWith('svc.'));
  const domain = serviceEntry?.slice('svc.'.length).replace(/\.+$/, '');
  return domain === '' ? undefined : domain;
}
