/**
 * `scoby run --embedded`: the in-memory API server (simulated Deployment, Service and Knative
 * controllers on) with the CRDRegistration CRD and Scoby's namespace installed, and a kubeconfig
 * for kubectl and client-node written to disk.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { startApiServer } from '@scoby/in-memory-apiserver';
import { crdManifest } from '@scoby/registration';
import { DynamicClient } from '../../kube/dynamic-client.ts';
import { applyObjects } from './apply-objects.ts';

export interface EmbeddedCluster {
  kubeConfig: KubeConfig;
  /** A client for Scoby's own set-up work (the sample); the controller uses its own. */
  client: DynamicClient;
  kubeconfigPath: string;
  stop(): Promise<void>;
}

export async function startEmbeddedCluster(options: {
  scobyNamespace: string;
  kubeconfigPath: string;
}): Promise<EmbeddedCluster> {
  const server = await startApiServer();
  const client = new DynamicClient(server.kubeConfig());
  const stop = async () => {
    client.close();
    await server.stop();
  };
  try {
    await applyObjects(client, [
      crdManifest(),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: options.scobyNamespace } },
    ]);
    await mkdir(dirname(options.kubeconfigPath), { recursive: true });
    await server.writeKubeconfig(options.kubeconfigPath);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kubeConfig: server.kubeConfig(), client, kubeconfigPath: options.kubeconfigPath, stop };
}
