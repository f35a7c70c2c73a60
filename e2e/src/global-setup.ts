/**
 * Once per run: start the cluster E2E_CLUSTER selects, install Scoby's CRD from crds/ as a user would,
 * start Scoby in this process, and hand the kubeconfig to the scenario files. On the node container
 * (E2E_CLUSTER=node) Scoby is instead installed by its Helm chart and its pods are the only controller.
 */
import type { TestProject } from 'vitest/node';
import { chartValues, helmFor, installChart } from './chart/install-chart.ts';
import { ClusterHandle } from './handle.ts';
import { readManifests } from './kube/manifests.ts';
import { startCluster } from './providers/start-cluster.ts';
import { startScoby } from './scoby.ts';
import { readSettings, SCOBY_NAMESPACE } from './settings.ts';

const REGISTRATION_CRD = new URL('../../crds/scoby.triggermesh.io_crdregistrations.yaml', import.meta.url);
/** The grant an admin applies with the StatefulSet plugin Scoby loads (see startScoby). */
const PLUGIN_RBAC = new URL('../../packages/formfactor-statefulset-example/rbac.yaml', import.meta.url);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const reading = readSettings(process.env);
  if (!reading.ok) throw new Error(reading.message);
  const { settings } = reading;
  const cluster = await startCluster(settings, (line) => console.log(`[e2e] ${line}`));
  const handle = new ClusterHandle(cluster.kubeconfigYaml, cluster.provider);
  try {
    const stopController =
      cluster.provider === 'node'
        ? await installByChart(cluster.kubeconfigYaml, settings.controllerImage!)
        : await startInProcess(
            handle,
            cluster.controllerKubeconfigYaml ?? cluster.kubeconfigYaml,
            settings.replicas,
          );
    project.provide('e2e', {
      provider: cluster.provider,
      kubeconfigYaml: cluster.kubeconfigYaml,
      controllerImage: settings.controllerImage,
      hookHost: cluster.addressFromPods ?? '127.0.0.1',
      nodeContainerId: cluster.nodeContainerId,
      knative: settings.knative,
    });
    return async () => {
      await stopController();
      handle.close();
      await cluster.stop();
    };
  } catch (error) {
    handle.close();
    await cluster.stop();
    throw error;
  }
}

/** Scoby in this process, as the ServiceAccount of deploy/ where the cluster enforces RBAC. */
async function startInProcess(
  handle: ClusterHandle,
  kubeconfigYaml: string,
  replicas: number,
): Promise<() => Promise<void>> {
  await handle.apply(await readManifests(REGISTRATION_CRD));
  await handle.apply(await readManifests(PLUGIN_RBAC));
  await handle.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: SCOBY_NAMESPACE } });
  const scoby = await startScoby(kubeconfigYaml, handle.timeoutMs, replicas);
  console.log(
    replicas === 1
      ? `[e2e] cluster: ${handle.provider}; Scoby is leading`
      : `[e2e] cluster: ${handle.provider}; ${replicas} Scoby replicas share the registrations (active-active)`,
  );
  return () => scoby.stop();
}

/** Scoby installed by its Helm chart: its pods are the only controller; they go with the cluster. */
async function installByChart(kubeconfigYaml: string, image: string): Promise<() => Promise<void>> {
  const helm = await helmFor(kubeconfigYaml);
  const started = Date.now();
  try {
    await installChart(helm, await chartValues(image));
  } finally {
    await helm.close();
  }
  console.log(
    `[e2e] cluster: node; Scoby installed by its Helm chart with ${image} in ${((Date.now() - started) / 1000).toFixed(1)} s, two replicas ready`,
  );
  return async () => {};
}
