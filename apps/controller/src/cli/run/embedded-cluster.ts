/**
 * `scoby run --embedded`: a cluster on this machine with the CRDRegistration CRD and Scoby's namespace
 * installed, and an admin kubeconfig for kubectl and client-node written to disk. `--cluster memory`
 * (the default) is the in-memory API server with simulated Deployment, Service and Knative controllers;
 * `--cluster kwok` is the real control plane of @scoby/kube-control-plane, where Scoby runs as the
 * ServiceAccount of deploy/10-rbac.yaml with exactly the permissions it ships with.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { crdManifest } from '@scoby/registration';
import { DynamicClient } from '@scoby/controller-runtime';
import { packageFile } from '../../package-files.ts';
import { readObjects } from '../documents.ts';
import { applyObjects } from './apply-objects.ts';

export const EMBEDDED_CLUSTERS = ['memory', 'kwok'] as const;
export type EmbeddedClusterKind = (typeof EMBEDDED_CLUSTERS)[number];

/** The repository's deploy/: the kwok cluster is a tool for working in the repository. */
const DEPLOY_DIR = packageFile('../../deploy/');
const INSTALL_FILES = ['00-namespace.yaml', '10-rbac.yaml'];
const CONTROLLER_ACCOUNT = 'scoby-controller';

export interface EmbeddedCluster {
  /** What the controller runs with. */
  kubeConfig: KubeConfig;
  /** An admin client for Scoby's own set-up work (the sample); the controller uses its own. */
  client: DynamicClient;
  kubeconfigPath: string;
  stop(): Promise<void>;
}

interface StartedServer {
  adminKubeconfigYaml: string;
  stop(): Promise<void>;
}

async function installManifests(scobyNamespace: string): Promise<KubeObject[]> {
  const objects: KubeObject[] = [];
  for (const file of INSTALL_FILES) {
    const reading = await readObjects(file, DEPLOY_DIR);
    if (!reading.ok) throw new Error(reading.message);
    objects.push(...reading.objects);
  }
  // deploy/ is written for scoby-system; SCOBY_NAMESPACE may name another.
  return objects.map((object) => {
    const copy = structuredClone(object);
    if (copy.kind === 'Namespace') copy.metadata.name = scobyNamespace;
    else if (copy.metadata.namespace !== undefined) copy.metadata.namespace = scobyNamespace;
    for (const subject of (copy.subjects as { namespace?: string }[] | undefined) ?? []) {
      if (subject.namespace !== undefined) subject.namespace = scobyNamespace;
    }
    return copy;
  });
}

function kubeConfigOf(yaml: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(yaml);
  return kubeConfig;
}

export async function startEmbeddedCluster(options: {
  cluster: EmbeddedClusterKind;
  scobyNamespace: string;
  kubeconfigPath: string;
  log(line: string): void;
}): Promise<EmbeddedCluster> {
  let server: StartedServer;
  let mintControllerKubeconfig: (() => Promise<string>) | undefined;
  if (options.cluster === 'kwok') {
    const { startControlPlane } = await import('@scoby/kube-control-plane');
    const plane = await startControlPlane({ log: options.log });
    server = { adminKubeconfigYaml: plane.kubeconfigYaml, stop: () => plane.stop() };
    mintControllerKubeconfig = () =>
      plane.serviceAccountKubeconfig(options.scobyNamespace, CONTROLLER_ACCOUNT);
  } else {
    const { startApiServer } = await import('@scoby/in-memory-apiserver');
    const memory = await startApiServer();
    server = { adminKubeconfigYaml: memory.kubeconfigYaml(), stop: () => memory.stop() };
  }
  const client = new DynamicClient(kubeConfigOf(server.adminKubeconfigYaml));
  const stop = async () => {
    client.close();
    await server.stop();
  };
  try {
    await applyObjects(client, [crdManifest()]);
    await applyObjects(
      client,
      mintControllerKubeconfig
        ? await installManifests(options.scobyNamespace)
        : [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: options.scobyNamespace } }],
    );
    await mkdir(dirname(options.kubeconfigPath), { recursive: true });
    await writeFile(options.kubeconfigPath, server.adminKubeconfigYaml, { mode: 0o600 });
    const controllerYaml = mintControllerKubeconfig
      ? await mintControllerKubeconfig()
      : server.adminKubeconfigYaml;
    return { kubeConfig: kubeConfigOf(controllerYaml), client, kubeconfigPath: options.kubeconfigPath, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
