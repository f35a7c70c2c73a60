/**
 * Scoby as the chart runs it on the node container: two replicas of the controller image (with the
 * example StatefulSet plugin), leader election, probes, /metrics through the chart's Service; the
 * leader pod deleted (the other takes over within the lease time and no update is lost); `helm
 * upgrade` to a rebuilt image (every instance stays Ready, no child is written).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmFor, upgradeChart } from '../../src/chart/install-chart.ts';
import { adapterOf, clusterForScenario, SCOBY_NAMESPACE, type ClusterHandle } from '../../src/index.ts';
import { inject } from 'vitest';
import {
  applyGreeter,
  applyGreeterSample,
  GREETER_API_VERSION,
  isReady,
  waitForReadyGreeter,
} from '../../src/greeter-sample.ts';
import { controllerPods as podsOfController, podReady } from '../../src/controller-pods.ts';
import { realPodsOrReason } from '../../src/node-only.ts';
import { fetchFromPod } from '../../src/pods.ts';
import { REBUILT_CONTROLLER_IMAGE } from '../../src/settings.ts';

const NAMESPACE = 'controller-pods';
const LEASE = 'scoby-controller-leader';
const GREETERS = ['one', 'two', 'three'];
const skipped = realPodsOrReason();

let cluster: ClusterHandle;

const controllerPods = (): Promise<KubeObject[]> => podsOfController(cluster);
const leaseOf = async () => {
  const lease = await cluster.get('coordination.k8s.io/v1', 'Lease', SCOBY_NAMESPACE, LEASE);
  return lease?.spec as { holderIdentity?: string; leaseDurationSeconds: number } | undefined;
};
const greetersReady = async (): Promise<void> => {
  for (const name of GREETERS) await waitForReadyGreeter(cluster, NAMESPACE, name);
};

beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  await applyGreeterSample(cluster, NAMESPACE);
  for (const name of GREETERS) await applyGreeter(cluster, NAMESPACE, name, `hello ${name}`);
  await greetersReady();
});
afterAll(() => cluster?.close());

describe.skipIf(skipped !== undefined)('the controller as the chart runs it', () => {
  it('runs two ready replicas, non-root with a read-only root filesystem', async () => {
    const pods = await controllerPods();
    expect(pods.map(podReady)).toEqual([true, true]);
    const spec = pods[0]!.spec as { securityContext: unknown; containers: Record<string, unknown>[] };
    const container = spec.containers[0]!;
    expect(container.image).toBe(inject('e2e').controllerImage);
    // kubelet refuses to start a runAsNonRoot container whose user is root: Ready says it is not.
    expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
  });

  it('serves /metrics through its Service to a pod', async () => {
    const answer = await fetchFromPod(
      cluster,
      NAMESPACE,
      'ask-metrics',
      `http://scoby-controller-metrics.${SCOBY_NAMESPACE}.svc.cluster.local:8080/metrics`,
    );
    expect(answer.status).toBe(200);
    const lines = String(answer.body)
      .split('\n')
      .filter((line) => line.startsWith('scoby_'));
    console.log(`[e2e] /metrics from a pod: ${lines.length} scoby_ samples, e.g. ${lines[0]}`);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('fails over within the lease time when the leader pod is deleted, losing no update', async () => {
    const before = await leaseOf();
    const leader = before?.holderIdentity?.split('_')[0];
    expect(leader).toBeDefined();
    const deleted = Date.now();
    await cluster.remove({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: SCOBY_NAMESPACE, name: leader! },
    });
    // An update made while the leader goes away.
    await applyGreeter(cluster, NAMESPACE, 'one', 'updated during failover');
    const after = await cluster.waitFor('another pod to hold the lease', async () => {
      const lease = await leaseOf();
      const holder = lease?.holderIdentity?.split('_')[0];
      return holder !== undefined && holder !== '' && holder !== leader ? lease : undefined;
    });
    const failoverMs = Date.now() - deleted;
    console.log(
      `[e2e] leader ${leader} deleted; ${after.holderIdentity} leads after ${failoverMs} ms (lease ${before!.leaseDurationSeconds} s)`,
    );
    expect(failoverMs).toBeLessThanOrEqual(before!.leaseDurationSeconds * 1000);
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      NAMESPACE,
      'greeter-one',
      'to carry the update',
      (object) =>
        ((adapterOf(object)?.env ?? []) as { name: string; value?: string }[]).some(
          (variable) => variable.value === 'updated during failover',
        ),
    );
    expect(adapterOf(deployment)?.env).toContainEqual({ name: 'GREETING', value: 'updated during failover' });
  });

  it('keeps every instance Ready with no child written through helm upgrade to a rebuilt image', async () => {
    const rebuilt = REBUILT_CONTROLLER_IMAGE;
    const separator = rebuilt.lastIndexOf(':');
    await greetersReady();
    // A write by Scoby moves the spec (generation) or its own managedFields entry (field manager
    // scoby-controller); the cluster's controllers write status and the Deployment's revision.
    type FieldsEntry = { manager?: string; operation?: string; time?: string };
    const fingerprint = (child: KubeObject) =>
      JSON.stringify({
        generation: child.metadata.generation,
        writes: ((child.metadata.managedFields ?? []) as FieldsEntry[])
          .filter((entry) => entry.manager === 'scoby-controller')
          .map((entry) => [entry.operation, entry.time]),
      });
    const childVersions = async () => {
      const versions: Record<string, string | undefined> = {};
      for (const kind of ['Deployment', 'Service'] as const)
        for (const child of await cluster.list(kind === 'Deployment' ? 'apps/v1' : 'v1', kind, NAMESPACE))
          if (child.metadata.name?.startsWith('greeter-'))
            versions[`${kind}/${child.metadata.name}`] = fingerprint(child);
      return versions;
    };
    const before = await childVersions();
    expect(Object.keys(before)).toHaveLength(GREETERS.length * 2);
    const notReady: string[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const greeter of await cluster.list(GREETER_API_VERSION, 'Greeter', NAMESPACE))
          if (!isReady(greeter)) notReady.push(String(greeter.metadata.name));
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    const helm = await helmFor(inject('e2e').kubeconfigYaml);
    const started = Date.now();
    try {
      await upgradeChart(helm, {
        'image.repository': rebuilt.slice(0, separator),
        'image.tag': rebuilt.slice(separator + 1),
      });
    } finally {
      await helm.close();
    }
    const pods = await controllerPods();
    expect(pods.map((pod) => (pod.spec as { containers: { image: string }[] }).containers[0]!.image)).toEqual(
      [rebuilt, rebuilt],
    );
    await cluster.waitFor('the new pods to hold the lease', async () => {
      const holder = (await leaseOf())?.holderIdentity?.split('_')[0];
      return pods.some((pod) => pod.metadata.name === holder);
    });
    // The new leader's first full reconcile: what it would write, it writes now.
    await cluster.quiet();
    await cluster.quiet();
    watching = false;
    await watch;
    const after = await childVersions();
    const written = Object.keys(before).filter((key) => before[key] !== after[key]);
    console.log(
      `[e2e] helm upgrade to ${rebuilt} took ${Date.now() - started} ms; instances not Ready meanwhile: ${notReady.length}; children written: ${written.length}`,
    );
    expect(notReady).toEqual([]);
    expect(written).toEqual([]);
  });
});
