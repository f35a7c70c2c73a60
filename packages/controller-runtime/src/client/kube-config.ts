import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';

/** Where the kubeconfig comes from: a file, the Pod's ServiceAccount, or client-node's default search. */
export type KubeConfigSource =
  { source: 'file'; path: string } | { source: 'in-cluster' } | { source: 'default' };

/**
 * Loads client-node's KubeConfig from the source loadConfig chose. With no kubeconfig anywhere,
 * client-node would fall back to http://localhost:8080; that is never the cluster meant, so it fails.
 */
export function loadKubeConfig(
  source: KubeConfigSource,
  env: Readonly<Record<string, string | undefined>> = process.env,
): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (source.source === 'file') kubeConfig.loadFromFile(source.path);
  else if (source.source === 'in-cluster') kubeConfig.loadFromCluster();
  else {
    const defaultPath = join(env.HOME ?? homedir(), '.kube', 'config');
    if ((env.KUBECONFIG ?? '').trim() === '' && !existsSync(defaultPath)) {
      throw new Error(`KUBECONFIG is not set, ${defaultPath} does not exist, and this is not a Pod`);
    }
    kubeConfig.loadFromDefault();
  }
  return kubeConfig;
}
