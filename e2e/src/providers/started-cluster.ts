import type { ProviderName } from './choose.ts';

/** A running cluster the suite can reach through a kubeconfig. */
export interface StartedCluster {
  readonly provider: ProviderName;
  /** A cluster admin's: scenarios act as the user who installs CRDs, roles and instances. */
  readonly kubeconfigYaml: string;
  /**
   * The controller's own identity where the cluster enforces RBAC: the ServiceAccount of
   * deploy/10-rbac.yaml, so a verb missing there fails a scenario. Absent: the admin kubeconfig.
   */
  readonly controllerKubeconfigYaml?: string;
  stop(): Promise<void>;
}
