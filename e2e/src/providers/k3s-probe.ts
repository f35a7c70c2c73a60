/** Can k3s run here? A container runtime must answer and the k3s image must be present or pullable. */
import type { K3sProbe } from './choose.ts';

/** The two questions asked of the container runtime; testcontainers answers them in production. */
export interface ContainerRuntime {
  /** Rejects when no runtime answers. */
  connect(): Promise<{
    hasImage(image: string): Promise<boolean>;
    /** Rejects when the image cannot be pulled. */
    pull(image: string): Promise<void>;
  }>;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The node image is built here (`npm run images`), never pulled: it must be in the runtime already. */
export function localImageProbe(image: string, runtime: ContainerRuntime): K3sProbe {
  return async () => {
    try {
      const connection = await runtime.connect();
      if (await connection.hasImage(image)) return undefined;
    } catch (error) {
      return `no container runtime answers (${reasonOf(error)}); start Docker, e.g. e2e/scripts/with-docker-engine.sh`;
    }
    return `image "${image}" is not in the container runtime; build it with \`npm run images\``;
  };
}

export function k3sProbe(image: string, runtime: ContainerRuntime): K3sProbe {
  return async () => {
    let connection: Awaited<ReturnType<ContainerRuntime['connect']>>;
    try {
      connection = await runtime.connect();
    } catch (error) {
      return `no container runtime answers (${reasonOf(error)}); start Docker or Podman, or set DOCKER_HOST`;
    }
    try {
      if (!(await connection.hasImage(image))) await connection.pull(image);
    } catch (error) {
      return `image "${image}" cannot be pulled (${reasonOf(error)}); set K3S_IMAGE to an image the runtime can get`;
    }
    return undefined;
  };
}
