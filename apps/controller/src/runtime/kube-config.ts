import { KubeConfig } from '@kubernetes/client-node';
import type { KubeConfigSource } from './config.ts';

/** Loads client-node's KubeConfig from the source loadConfig chose. */
export function loadKubeConfig(source: KubeConfigSource): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (source.source === 'file') kubeConfig.loadFromFile(source.path);
  else if (source.source === 'in-cluster') kubeConfig.loadFromCluster();
  else kubeConfig.loadFromDefault();
  return kubeConfig;
}
