/**
 * Images of the host's container runtime copied into the containerd of a cluster container (k3s, the
 * node image), so pods use them without a registry: `docker save`, copied in, imported by the
 * cluster's own containerd client.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

/** The command that imports an image archive into the cluster's containerd (namespace k8s.io). */
export type ImportCommand = (archive: string) => string[];

/** One archive of every image (`docker save a b …`: shared layers once), copied in and imported once. */
export async function importImages(
  container: StartedTestContainer,
  images: readonly string[],
  importCommand: ImportCommand,
): Promise<void> {
  if (images.length === 0) return;
  const client = await getContainerRuntimeClient();
  const directory = await mkdtemp(join(tmpdir(), 'scoby-e2e-'));
  const archive = join(directory, 'images.tar');
  const target = '/tmp/scoby-e2e-images.tar';
  try {
    // Engine's GET /images/get?names=…; @types/dockerode lacks getImages, dockerode has it.
    const dockerode = client.container.dockerode as unknown as {
      getImages(options: { names: string[] }): Promise<NodeJS.ReadableStream>;
    };
    const saved = await dockerode.getImages({ names: [...images] });
    await pipeline(saved, createWriteStream(archive));
    await container.copyFilesToContainer([{ source: archive, target }]);
    const result = await container.exec(importCommand(target));
    if (result.exitCode !== 0)
      throw new Error(`cannot import images ${images.join(', ')}: ${result.output.trim()}`);
    await container.exec(['rm', '-f', target]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** A kubeconfig read inside the container, with its server moved to the port published on the host. */
export function kubeconfigWithServer(kubeconfigYaml: string, server: string): string {
  return kubeconfigYaml.replace(/^(\s*server:\s*).*$/m, `$1${server}`);
}
