/**
 * A real API server: k3s in a container, through testcontainers. As on kwok, the admin applies Scoby's
 * install manifests and the controller runs as their ServiceAccount.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { K3sContainer } from '@testcontainers/k3s';
import { getContainerRuntimeClient, ImageName } from 'testcontainers';
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
 * Starts k3s; `preload` names host images copied into k3s's containerd (e.g. the controller image of
 * E2E_CONTROLLER_IMAGE), so pods can use them without a registry.
 */
export async function startK3sCluster(
  image: string,
  preload: readonly string[] = [],
): Promise<StartedCluster> {
  const container = await new K3sContainer(image).start();
  try {
    for (const name of preload) await importImage(container, name);
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

type StartedK3s = Awaited<ReturnType<K3sContainer['start']>>;

async function importImage(container: StartedK3s, image: string): Promise<void> {
  const client = await getContainerRuntimeClient();
  const directory = await mkdtemp(join(tmpdir(), 'scoby-e2e-'));
  const archive = join(directory, 'image.tar');
  try {
    const saved = await client.container.dockerode.getImage(image).get();
    await pipeline(saved, createWriteStream(archive));
    await container.copyFilesToContainer([{ source: archive, target: '/tmp/image.tar' }]);
    const result = await container.exec(['k3s', 'ctr', 'images', 'import', '/tmp/image.tar']);
    if (result.exitCode !== 0)
      throw new Error(`cannot import image "${image}" into k3s: ${result.output.trim()}`);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
