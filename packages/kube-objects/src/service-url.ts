/**
 * Cluster-internal URL of a Service, from its DNS name (docs/spec/address.md §2 step 2, docs/spec/children-and-status.md §8.7):
 * the port is written unless it is absent or 80.
 */
export function serviceUrl(name: string, namespace: string, clusterDomain: string, port?: number): string {
  const portSuffix = port === undefined || port === 80 ? '' : `:${port}`;
  return `http://${name}.${namespace}.svc.${clusterDomain}${portSuffix}`;
}
