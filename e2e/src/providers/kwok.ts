/**
 * The real control plane (@scoby/kube-control-plane: etcd, kube-apiserver with RBAC, controller-manager,
 * scheduler, kwok's fake nodes). Scoby's install manifests (namespace and RBAC of deploy/) are applied
 * by the admin as a user would, and the controller gets a token of their ServiceAccount, never admin.
 */
import { startControlPlane } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { deployManifests } from '../deploy-manifests.ts';
import { ClusterHandle } from '../handle.ts';
import type { StartedCluster } from './started-cluster.ts';

const CONTROLLER_ACCOUNT = { namespace: 'scoby-system', name: 'scoby-controller' };

export async function startKwokCluster(log: (line: string) => void): Promise<StartedCluster> {
  const plane = await startControlPlane({ log: (line) => log(`kwok: ${line}`) });
  try {
    const admin = new ClusterHandle(plane.kubeconfigYaml, 'kwok');
    try {
      const install = (await deployManifests()).filter((object: KubeObject) => object.kind !== 'Deployment');
      await admin.apply(install);
    } finally {
      admin.close();
    }
    const controllerKubeconfigYaml = await plane.serviceAccountKubeconfig(
      CONTROLLER_ACCOUNT.namespace,
      CONTROLLER_ACCOUNT.name,
    );
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
