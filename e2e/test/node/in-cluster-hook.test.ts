/**
 * The example hook deployed in the node container behind a Service and referenced by `ref`: the
 * controller (the chart's pod) calls it through cluster DNS, the hook reshapes the children on
 * pre-reconcile and holds deletion on finalize until the instance is Approved. The hook's own request
 * log (one JSON line per call) shows what it was asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approve } from '../../src/approval.ts';
import {
  adapterOf,
  clusterForScenario,
  conditionOf,
  registeredKindYaml,
  statusOf,
  type ClusterHandle,
} from '../../src/index.ts';
import { realPodsOrReason } from '../../src/node-only.ts';

const NAMESPACE = 'hook-pods';
const KIND = { group: 'hookpods.e2e.scoby.dev', kind: 'Mailer', plural: 'mailers' };
const INSTANCE = ['hookpods.e2e.scoby.dev/v1', 'Mailer', NAMESPACE, 'orders'] as const;
const skipped = realPodsOrReason();

let cluster: ClusterHandle;

async function hookLog(): Promise<
  { phase: string; instance: string; children?: string[]; answer: string }[]
> {
  const pods = await cluster.list('v1', 'Pod', NAMESPACE);
  const hookPod = pods.find((pod) => pod.metadata.labels?.app === 'mailer-hook');
  if (hookPod === undefined) throw new Error('no hook pod');
  const text = await cluster.client.text(`/api/v1/namespaces/${NAMESPACE}/pods/${hookPod.metadata.name}/log`);
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  await cluster.apply(registeredKindYaml(KIND, NAMESPACE));
  await cluster.apply(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: mailer-hook, namespace: ${NAMESPACE}}
spec:
  selector: {matchLabels: {app: mailer-hook}}
  template:
    metadata: {labels: {app: mailer-hook}}
    spec:
      containers:
      - name: hook
        image: scoby.local/example-hook:dev
        imagePullPolicy: Never
        env:
        - {name: HOST, value: 0.0.0.0}
        - {name: PORT, value: "8080"}
        - {name: EXAMPLE_HOOK_CONDITION_TYPE, value: HookChecked}
        - {name: FINALIZE_WHEN_CONDITION, value: Approved}
        readinessProbe: {tcpSocket: {port: 8080}}
---
apiVersion: v1
kind: Service
metadata: {name: mailer-hook, namespace: ${NAMESPACE}}
spec:
  selector: {app: mailer-hook}
  ports: [{port: 80, targetPort: 8080}]
`);
  await cluster.waitForObject(
    'apps/v1',
    'Deployment',
    NAMESPACE,
    'mailer-hook',
    'to be available',
    (object) => (object.status as { availableReplicas?: number } | undefined)?.availableReplicas === 1,
  );
  await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: hookpods-mailer
spec:
  crd: mailers.hookpods.e2e.scoby.dev
  workload:
    fromImage: {repo: scoby.local/greeter-env:dev}
    statusConfiguration:
      conditionsFromHook:
      - type: HookChecked
      - type: Approved
  hook:
    version: v1
    address:
      ref: {apiVersion: v1, kind: Service, name: mailer-hook, namespace: ${NAMESPACE}}
    timeout: PT5S
    capabilities: [pre-reconcile, finalize]
`);
});
afterAll(() => cluster?.close());

describe.skipIf(skipped !== undefined)('a hook in the cluster, referenced by ref', () => {
  it('is resolved to its Service URL on the registration', async () => {
    const registration = await cluster.waitForObject(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      'hookpods-mailer',
      'to be Ready',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
    expect(statusOf(registration).annotations).toEqual({
      hookURL: `http://mailer-hook.${NAMESPACE}.svc.cluster.local`,
    });
  });

  it('is called by the in-cluster controller on pre-reconcile and reshapes the children', async () => {
    await cluster.apply(
      `{apiVersion: hookpods.e2e.scoby.dev/v1, kind: Mailer, metadata: {name: orders, namespace: ${NAMESPACE}}, spec: {host: mail.internal}}`,
    );
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      NAMESPACE,
      'hookpods-mailer-orders',
      'to be created',
    );
    expect(adapterOf(deployment)?.env).toEqual([
      { name: 'HOST', value: 'mail.internal' },
      { name: 'EXAMPLE_HOOK', value: 'on' },
    ]);
    const instance = await cluster.waitForObject(
      ...INSTANCE,
      'to show the Deployment available',
      (object) => conditionOf(object, 'DeploymentReady')?.status === 'True',
    );
    expect(conditionOf(instance, 'HookChecked')).toEqual({
      type: 'HookChecked',
      status: 'True',
      reason: 'HookOK',
      message: 'checked by the example hook',
    });
    const calls = await hookLog();
    console.log(`[e2e] hook request log: ${JSON.stringify(calls.slice(0, 3))}`);
    expect(calls).toContainEqual({
      phase: 'pre-reconcile',
      instance: `Mailer ${NAMESPACE}/orders`,
      children: expect.arrayContaining([expect.any(String)]),
      answer: 'ok',
    });
  });

  it('holds the deleted instance until finalize agrees, then lets it go', async () => {
    await cluster.remove({
      apiVersion: INSTANCE[0],
      kind: INSTANCE[1],
      metadata: { namespace: NAMESPACE, name: 'orders' },
    });
    const held = await cluster.waitForObject(
      ...INSTANCE,
      'to report the refused finalization',
      (object) => conditionOf(object, 'Ready')?.reason === 'HookFailed',
    );
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect(conditionOf(held, 'Ready')?.message).toBe(
      'finalize hook: HTTP 409: waiting for condition Approved',
    );
    await approve(cluster, INSTANCE);
    await cluster.waitForGone(...INSTANCE);
    // The pod's log reaches the API through containerd's log file: the last line may trail the answer.
    const finalizeCalls = await cluster.waitFor(
      'the hook to log the finalize call it agreed to',
      async () => {
        const calls = (await hookLog()).filter((call) => call.phase === 'finalize');
        return calls.at(-1)?.answer === 'ok' ? calls : undefined;
      },
    );
    console.log(`[e2e] finalize calls seen by the hook: ${JSON.stringify(finalizeCalls)}`);
    expect(finalizeCalls[0]).toEqual({
      phase: 'finalize',
      instance: `Mailer ${NAMESPACE}/orders`,
      answer: 'waiting for condition Approved',
    });
    expect(finalizeCalls.at(-1)).toEqual({
      phase: 'finalize',
      instance: `Mailer ${NAMESPACE}/orders`,
      answer: 'ok',
    });
  });
});
