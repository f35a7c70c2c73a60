/**
 * The real control plane (@scoby/kube-control-plane: etcd, kube-apiserver with RBAC, controller-manager,
 * scheduler, kwok's fake nodes). Scoby's install manifests (namespace and RBAC of deploy/) are applied
 * by the admin as a user would, and the controller gets a token of their ServiceAccount, never admin.
 */
import { startControlPlane } from '@scoby/kube-control-plane';
import { installScobyAccount } from './scoby-account.ts';
import type { StartedCluster } from './started-cluster.ts';

export async function startKwokCluster(log: (line: string) => void): Promise<StartedCluster> {
  const plane = await startControlPlane({ log: (line) => log(`kwok: ${line}`) });
  try {
    const controllerKubeconfigYaml = await installScobyAccount(plane.kubeconfigYaml, 'kwok');
    log(
      `kwok: control plane up in ${(plane.startupMs / 1000).toFixed(1)} s; Scoby runs as ServiceAccount scoby-system/scoby-controller`,
    );
    return {
      provider: 'kwok',
      kubeconfigYaml: plane.kubeconfigYaml,
      controllerKubeconfigYaml,
      stop: () => plane.stop(),
    };
  } catch (error) {
    await plane.stop();
    throw error;
  }
}
