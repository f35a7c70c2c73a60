import { readFile } from 'node:fs/promises';
import { detectClusterDomain } from './cluster-domain.ts';

export interface ClusterDomainSources {
  environment?: Record<string, string | undefined>;
  resolvConfPath?: string;
}

/** Reads `CLUSTER_DOMAIN` and resolv.conf (default: the process's, `/etc/resolv.conf`) and detects the cluster domain. */
export async function loadClusterDomain(sources: ClusterDomainSources = {}): Promise<string> {
  const { environment = process.env, resolvConfPath = '/etc/resolv.conf' } = sources;
  const resolvConf = await readFile(resolvConfPath, 'utf8').catch(() => undefined);
  return detectClusterDomain(environment.CLUSTER_DOMAIN, resolvConf);
}
