/** What the global set-up hands every scenario file, and how a scenario gets its cluster handle. */
import { inject } from 'vitest';
import { ClusterHandle } from './handle.ts';
import type { ProviderName } from './providers/choose.ts';

export interface E2eContext {
  provider: ProviderName;
  kubeconfigYaml: string;
  controllerImage: string | undefined;
  /** The address a hook served by the test process listens on, and its URL names: the controller reaches it there. */
  hookHost: string;
  /** The node container's id in the Docker engine (E2E_CLUSTER=node only). */
  nodeContainerId?: string;
  /** Knative Serving and Traefik run on the node (E2E_KNATIVE=1). */
  knative: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}

export function clusterForScenario(): ClusterHandle {
  const context = inject('e2e');
  return new ClusterHandle(context.kubeconfigYaml, context.provider);
}

/** See E2eContext.hookHost. */
export function hookHost(): string {
  return inject('e2e').hookHost;
}

export function controllerImage(): string | undefined {
  return inject('e2e').controllerImage;
}
