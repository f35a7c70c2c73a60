import type { ProviderName } from './choose.ts';

/** A running cluster the suite can reach through a kubeconfig. */
export interface StartedCluster {
  readonly provider: ProviderName;
  readonly kubeconfigYaml: string;
  stop(): Promise<void>;
}
