/**
 * Attack: `--unrenderable` (5) instances whose own spec cannot render (a secret reference whose name
 * is a number) must each get exactly one Warning Event RenderFailed and then be left alone (parked,
 * docs/spec/env.md §9) through `OBSERVE_MS` of resyncs and status writes; once their spec is fixed,
 * every one converges.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor } from '../../test/support/cluster.ts';
import { NAMESPACE } from '../world.ts';
import { REGISTRATIONS, sleep, startChaosCluster, type Workload } from './cluster.ts';
import { instanceObject, type TrackedInstance } from './churn.ts';
import { ScobyRunChild, STARTED } from './controller.ts';
import { settle } from './invariants.ts';
import { reportControllers, reportSettled, type Scenario } from './scenario.ts';

const VAULTS: Workload = {
  registration: 'vault',
  apiVersion: 'parking.example.com/v1',
  kind: 'Vault',
  resource: { group: 'parking.example.com', version: 'v1', resource: 'vaults', namespaced: true },
};
const EVENTS = { group: '', version: 'v1', resource: 'events', namespaced: true };
const OBSERVE_MS = 10_000;

function vaultRegistration(): KubeObject {
  return {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: VAULTS.registration },
    spec: {
      crd: `${VAULTS.resource.resource}.${VAULTS.resource.group}`,
      workload: {
        fromImage: { repo: 'registry.example.com/vault:1' },
        parameterConfiguration: {
          fromSpec: {
            toEnv: [
              {
                path: 'spec.credentials',
                name: 'PASSWORD',
                valueFrom: {
                  secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.key' },
                },
              },
            ],
          },
        },
      },
    },
  };
}

const spec = (secretName: unknown, revision: number) => ({
  credentials: { secretName, key: 'password' },
  revision,
});

function readyReason(instance: KubeObject): string | undefined {
  const status = instance.status as
    | { observedGeneration?: number; conditions?: { type: string; status: string; reason?: string }[] }
    | undefined;
  if (status?.observedGeneration !== instance.metadata.generation) return undefined;
  const ready = status?.conditions?.find((condition) => condition.type === 'Ready');
  return ready === undefined ? undefined : `${ready.status} ${ready.reason ?? ''}`;
}

export const renderParking: Scenario = async (options, report) => {
  const cluster = await startChaosCluster();
  const controller = new ScobyRunChild('scoby', {
    kubeconfigFile: await cluster.kubeconfigFile('scoby'),
    leaderElect: false,
    concurrency: options.concurrency,
  });
  const patienceMs = options.patienceSeconds * 1000;
  const tracked: TrackedInstance[] = Array.from({ length: options.unrenderable }, (_, index) => ({
    workload: VAULTS,
    name: `vault-${index}`,
    revision: 1,
    deleted: false,
  }));
  try {
    await controller.waitForLog(STARTED, patienceMs);
    const { group, resource } = VAULTS.resource;
    await cluster.createCrd(crdFor({ group, kind: VAULTS.kind, plural: resource }));
    await cluster.client.create(REGISTRATIONS, vaultRegistration());
    const reconcilesBefore = (await controller.metric('controller_runtime_reconcile_total')) ?? 0;
    for (const instance of tracked) {
      await cluster.client.create(VAULTS.resource, instanceObject(VAULTS, instance.name, spec(42, 1)));
    }
    const deadline = Date.now() + patienceMs;
    for (;;) {
      const items = (await cluster.client.list(VAULTS.resource, NAMESPACE)).items;
      const failed = items.filter((item) => readyReason(item) === 'False RenderFailed').length;
      if (failed === tracked.length) break;
      if (Date.now() > deadline)
        throw new Error(`only ${failed} of ${tracked.length} instances show RenderFailed`);
      await sleep(100);
    }
    await sleep(OBSERVE_MS);
    const reconciles =
      ((await controller.metric('controller_runtime_reconcile_total')) ?? NaN) - reconcilesBefore;
    const events = (await cluster.client.list(EVENTS, NAMESPACE)).items;
    const warnings = tracked.map((instance) =>
      events
        .filter(
          (event) =>
            event.reason === 'RenderFailed' &&
            event.type === 'Warning' &&
            (event.involvedObject as { name?: string } | undefined)?.name === instance.name,
        )
        .reduce((sum, event) => sum + Number(event.count ?? 1), 0),
    );
    report.info('instances whose own spec cannot render', tracked.length);
    report.check(
      'Warning Events RenderFailed per instance',
      warnings.join(', '),
      warnings.every((count) => count === 1),
      '10 in 5 s (issue), 1',
    );
    report.info(
      `reconciles per instance in the first ${OBSERVE_MS / 1000} s`,
      reconciles / tracked.length,
      '11 in 5 s (issue)',
    );

    for (const instance of tracked) {
      await cluster.client.patch(VAULTS.resource, NAMESPACE, instance.name, {
        spec: spec('vault-secret', 2),
      });
      instance.revision = 2;
    }
    const settled = await settle(cluster.client, [VAULTS], tracked, patienceMs, 250);
    report.check(
      'seconds to converge after the spec was fixed',
      settled.seconds,
      settled.violations.length === 0,
    );
    reportSettled(report, settled, [], []);
  } finally {
    await controller.stop();
    reportControllers(report, [controller]);
    await cluster.stop();
  }
};
