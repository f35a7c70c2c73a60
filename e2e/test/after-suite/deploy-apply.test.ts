/**
 * deploy/ applied as a user installs Scoby with it (the CRD of crds/ first, then the manifests in file
 * order). It runs after every other scenario (a project of its own, vitest.config.ts), because on the
 * node container the chart's release is the controller until then: there the release is uninstalled,
 * deploy/ applied with the test image, its controller shown leading and reconciling an instance with
 * real pods, then removed and the chart installed again. Elsewhere Scoby runs in the test process as
 * deploy/'s ServiceAccount, so the manifests are applied over what the suite applied and only the
 * Deployment is removed. On k3s the Deployment is applied only when E2E_CONTROLLER_IMAGE names an image
 * the suite loaded into k3s; then its two replicas must become ready (probes, RBAC for the Lease and the
 * informers).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chartValues, helmFor, installChart, RELEASE, type Helm } from '../../src/chart/install-chart.ts';
import { controllerPods as podsOfController } from '../../src/controller-pods.ts';
import {
  ADAPTER_IMAGE,
  clusterForScenario,
  conditionOf,
  controllerImage,
  deployManifests,
  podSpecOf,
  readManifests,
  registeredKindYaml,
  SCOBY_NAMESPACE,
  type ClusterHandle,
} from '../../src/index.ts';

const REGISTRATION_CRD = new URL('../../../crds/scoby.triggermesh.io_crdregistrations.yaml', import.meta.url);
/** The grant an admin applies with the StatefulSet plugin that the test image loads. */
const PLUGIN_RBAC = new URL('../../../packages/formfactor-statefulset-example/rbac.yaml', import.meta.url);
const LEASE = 'scoby-controller-leader';
const NAMESPACE = 'deploy-apply';
const KIND = { group: 'deployapply.e2e.scoby.dev', kind: 'Parcel', plural: 'parcels' };
const INSTANCE = [`${KIND.group}/v1`, KIND.kind, NAMESPACE, 'first'] as const;

let cluster: ClusterHandle;
let manifests: KubeObject[];
/** The chart's release is the controller (node): it makes way for deploy/ and comes back afterwards. */
let chartInstalled: boolean;
let appliedByTest: KubeObject[] = [];

const controllerPods = (): Promise<KubeObject[]> => podsOfController(cluster, { deleting: true });

beforeAll(async () => {
  cluster = clusterForScenario();
  manifests = await deployManifests();
  chartInstalled = cluster.provider === 'node';
  if (!chartInstalled) return;
  const started = Date.now();
  await withHelm((helm) => helm.run(['uninstall', RELEASE, '--namespace', SCOBY_NAMESPACE, '--wait']));
  await cluster.waitFor(
    "the chart's controller pods to be gone",
    async () => (await controllerPods()).length === 0,
  );
  console.log(
    `[e2e] chart release ${RELEASE} uninstalled in ${Date.now() - started} ms: deploy/ is applied next`,
  );
});

afterAll(async () => {
  try {
    if (!chartInstalled) {
      // Two controllers must not keep reconciling next to the one the suite runs in-process.
      const deployment = appliedByTest.find((object) => object.kind === 'Deployment');
      if (deployment !== undefined) await cluster.remove(deployment);
      return;
    }
    // deploy/ leaves the way it came (its namespace stays: the chart installs into it), then the chart
    // comes back as the global set-up installed it.
    for (const object of [...appliedByTest].reverse())
      if (object.kind !== 'Namespace' && object.kind !== 'CustomResourceDefinition')
        await cluster.remove(object);
    await cluster.waitFor(
      "deploy/'s controller pods to be gone",
      async () => (await controllerPods()).length === 0,
    );
    const started = Date.now();
    await withHelm(async (helm) => installChart(helm, await chartValues(controllerImage()!)));
    const pods = await controllerPods();
    console.log(`[e2e] chart installed again in ${Date.now() - started} ms (${pods.length} controller pods)`);
    expect(pods).toHaveLength(2);
  } finally {
    cluster.close();
  }
});

describe('install manifests of deploy/', () => {
  it('are accepted by the cluster', async () => {
    const image = controllerImage();
    // kwok's pods are simulated like the in-memory server's; k3s and the node really run the image.
    const withController = cluster.provider !== 'k3s' || image !== undefined;
    const toApply = [
      ...(await readManifests(REGISTRATION_CRD)),
      ...manifests
        .filter((object) => withController || object.kind !== 'Deployment')
        .map((object) =>
          object.kind === 'Deployment' && image !== undefined ? withImage(object, image) : object,
        ),
      // The test image loads the StatefulSet plugin: on the node its grant goes with deploy/.
      ...(chartInstalled ? await readManifests(PLUGIN_RBAC) : []),
    ];
    appliedByTest = await cluster.apply(toApply);
    expect(appliedByTest.map((object) => object.metadata.uid !== undefined)).toEqual(toApply.map(() => true));
    if (!withController) return;
    const ready = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      SCOBY_NAMESPACE,
      'scoby-controller',
      'to have two ready replicas',
      (object) => (object.status as { readyReplicas?: number } | undefined)?.readyReplicas === 2,
    );
    expect((ready.status as { availableReplicas?: number }).availableReplicas).toBe(2);
  });

  it('run a controller that leads and reconciles, where it is the only one (node)', async (context) => {
    if (!chartInstalled) {
      const reason = `deploy/'s controller is the only one only on E2E_CLUSTER=node (this run: ${cluster.provider}; Scoby runs in the test process)`;
      console.log(`[e2e] skipped: ${reason}`);
      context.skip(reason);
    }
    const pods = (await controllerPods()).map((pod) => pod.metadata.name);
    expect(pods).toHaveLength(2);
    const holder = await cluster.waitFor('a pod of deploy/ to hold the lease', async () => {
      const lease = await cluster.get('coordination.k8s.io/v1', 'Lease', SCOBY_NAMESPACE, LEASE);
      const pod = (lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity?.split('_')[0];
      return pods.includes(pod) ? pod : undefined;
    });
    const started = Date.now();
    await cluster.apply(registeredKindYaml(KIND, NAMESPACE));
    await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: deploy-apply-parcel}
spec:
  crd: ${KIND.plural}.${KIND.group}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
---
apiVersion: ${INSTANCE[0]}
kind: ${INSTANCE[1]}
metadata: {name: ${INSTANCE[3]}, namespace: ${NAMESPACE}}
spec: {weight: 3}
`);
    await cluster.waitForObject(
      ...INSTANCE,
      'to be Ready',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
    const child = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      NAMESPACE,
      'deploy-apply-parcel-first',
      'to exist',
    );
    const managers = ((child.metadata.managedFields ?? []) as { manager?: string }[]).map(
      (entry) => entry.manager,
    );
    console.log(
      `[e2e] deploy/'s controller: lease held by ${holder}; ${INSTANCE[1]} ${NAMESPACE}/${INSTANCE[3]} Ready with its Deployment after ${Date.now() - started} ms (field managers ${JSON.stringify(managers)})`,
    );
    expect(managers).toContain('scoby-controller');
    expect(conditionOf(child, 'Available')).toMatchObject({ status: 'True' });
    await cluster.remove({
      apiVersion: INSTANCE[0],
      kind: INSTANCE[1],
      metadata: { namespace: NAMESPACE, name: INSTANCE[3] },
    });
    await cluster.waitForGone(...INSTANCE);
    await cluster.remove({
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: 'deploy-apply-parcel' },
    });
  });
});

async function withHelm<T>(use: (helm: Helm) => Promise<T>): Promise<T> {
  const helm = await helmFor(inject('e2e').kubeconfigYaml);
  try {
    return await use(helm);
  } finally {
    await helm.close();
  }
}

function withImage(deployment: KubeObject, image: string): KubeObject {
  const copy = structuredClone(deployment);
  const [container] = podSpecOf(copy)?.containers as Record<string, unknown>[];
  if (container !== undefined) container.image = image;
  return copy;
}
