/**
 * A real API server: k3s in a container, through testcontainers. As on kwok, the admin applies Scoby's
 * install manifests and the controller runs as their ServiceAccount.
 */
import { K3sContainer, StartedK3sContainer } from '@testcontainers/k3s';
import { GenericContainer, getContainerRuntimeClient, ImageName } from 'testcontainers';
import { importImages } from './container-images.ts';
import type { ContainerRuntime } from './k3s-probe.ts';
import { installScobyAccount } from './scoby-account.ts';
import type { StartedCluster } from './started-cluster.ts';

export const testcontainersRuntime: ContainerRuntime = {
  async connect() {
    const client = await getContainerRuntimeClient();
    return {
      hasImage: (image) => client.image.exists(ImageName.fromString(image)),
      pull: (image) => client.image.pull(ImageName.fromString(image)),
    };
  },
};

/**
 * K3sContainer's settings (privileged, host cgroups, tmpfs /run, waiting for "Node controller sync
 * successful"), with the kubeconfig read by k3s's own kubectl. K3sContainer's start() reads it with
 * whichever tar-stream is hoisted (@testcontainers/k3s 11.14 declares none), and this workspace hoists
 * v2 (for nx and dockerode), whose extract is not async iterable: start() fails with "extract is not
 * async iterable" after the container is up.
 */
class K3sContainerReadByKubectl extends K3sContainer {
  override async start(): Promise<StartedK3sContainer> {
    const started = await GenericContainer.prototype.start.call(this);
    const kubeconfig = await started.exec(['k3s', 'kubectl', 'config', 'view', '--raw']);
    if (kubeconfig.exitCode !== 0) {
      await started.stop();
      throw new Error(`cannot read k3s's kubeconfig: ${kubeconfig.output.trim()}`);
    }
    return new StartedK3sContainer(started, kubeconfig.stdout);
  }
}

/**
 * Starts k3s; `preload` names host images copied into k3s's containerd (e.g. the controller image of
 * E2E_CONTROLLER_IMAGE), so pods can use them without a registry.
 */
export async function startK3sCluster(
  image: string,
  preload: readonly string[] = [],
): Promise<StartedCluster> {
  const container = await new K3sContainerReadByKubectl(image).start();
  try {
    await importImages(container, preload, (archive) => ['k3s', 'ctr', 'images', 'import', archive]);
    const kubeconfigYaml = container.getKubeConfig();
    return {
      provider: 'k3s',
      kubeconfigYaml,
      controllerKubeconfigYaml: await installScobyAccount(kubeconfigYaml, 'k3s'),
      stop: async () => void (await container.stop()),
    };
  } catch (error) {
    await container.stop();
    throw error;
  }
}
