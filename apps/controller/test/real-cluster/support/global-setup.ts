/**
 * Once per run of test/real-cluster: the real control plane with Scoby's CRD and install manifests
 * (namespace, RBAC) applied by the admin, and a token of Scoby's ServiceAccount, so the controller
 * under test has exactly the permissions it ships with.
 */
import { readFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { startControlPlane } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { crdManifest } from '@scoby/registration';
import type { TestProject } from 'vitest/node';
import { parseAllDocuments } from 'yaml';
import { DynamicClient } from '@scoby/controller-runtime';
import { applyObjects } from '../../../src/cli/run/apply-objects.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    realCluster: {
      adminKubeconfigYaml: string;
      controllerKubeconfigYaml: string;
      /** kube-apiserver's audit log: the requests of ServiceAccounts in namespace scoby-ha (replicas.ts). */
      auditLogPath: string;
    };
  }
}

const DEPLOY = new URL('../../../../../deploy/', import.meta.url);

async function manifests(file: string): Promise<KubeObject[]> {
  const text = await readFile(new URL(file, DEPLOY), 'utf8');
  return parseAllDocuments(text)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const plane = await startControlPlane({ log: (line) => console.log(`[real-cluster] ${line}`) });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(plane.kubeconfigYaml);
  const admin = new DynamicClient(kubeConfig);
  try {
    await applyObjects(admin, [
      crdManifest(),
      ...(await manifests('00-namespace.yaml')),
      ...(await manifests('10-rbac.yaml')),
    ]);
  } finally {
    admin.close();
  }
  project.provide('realCluster', {
    adminKubeconfigYaml: plane.kubeconfigYaml,
    controllerKubeconfigYaml: await plane.serviceAccountKubeconfig('scoby-system', 'scoby-controller'),
    auditLogPath: plane.auditLogPath,
  });
  return () => plane.stop();
}
