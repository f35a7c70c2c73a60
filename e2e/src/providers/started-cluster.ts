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
  /**
   * Where the controller reaches a server of the test process (a hook): the machine's address as the
   * cluster's pods see it. Absent: 127.0.0.1, the controller runs in the test process.
   */
  readonly addressFromPods?: string;
  /** The node container's id in the Docker engine (the node provider): the fault scenarios act on it. */
  readonly nodeContainerId?: string;
  stop(): Promise<void>;
}
