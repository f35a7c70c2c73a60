/**
 * Hooks with the example hook app: it reshapes the Deployment (adds EXAMPLE_HOOK=on), reports its own
 * condition, and gates deletion until the instance carries an Approved=True condition. The hook runs in
 * the test process on the address where the controller reaches it (hookHost(): 127.0.0.1 next to an
 * in-process controller, the machine's address as pods see it on the node container); its request log
 * shows what it was asked.
 */
import { createExampleHook, type RequestLogLine } from '@scoby/example-hook';
import type { HookServer } from '@scoby/hooks-v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approve } from '../src/approval.ts';
import {
  ADAPTER_IMAGE,
  adapterOf,
  clusterForScenario,
  conditionOf,
  conditionsOf,
  hookHost,
  registeredKindYaml,
  statusOf,
  type ClusterHandle,
} from '../src/index.ts';

const KIND = { group: 'hooks.e2e.scoby.dev', kind: 'Mailer', plural: 'mailers' };
const INSTANCE = ['hooks.e2e.scoby.dev/v1', 'Mailer', 'hooks', 'orders'] as const;

let cluster: ClusterHandle;
let hook: HookServer;
const requestLog: RequestLogLine[] = [];
beforeAll(async () => {
  cluster = clusterForScenario();
  hook = await createExampleHook({
    host: hookHost(),
    conditionType: 'HookChecked',
    finalizeWhenCondition: 'Approved',
    logRequest: (line) => requestLog.push(line),
  });
  await cluster.apply(registeredKindYaml(KIND, 'hooks'));
  await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: mailer
spec:
  crd: mailers.hooks.e2e.scoby.dev
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    statusConfiguration:
      conditionsFromHook:
      - type: HookChecked
      - type: Approved
  hook:
    version: v1
    address:
      uri: ${hook.url}
    timeout: PT5S
    capabilities: [pre-reconcile, finalize]
`);
});
afterAll(async () => {
  cluster?.close();
  await hook?.close();
});

describe('hooks', () => {
  it('publishes the hook URL on the registration', async () => {
    const registration = await cluster.waitForObject(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      'mailer',
      'to be Ready',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
    expect(statusOf(registration).annotations).toEqual({ hookURL: hook.url });
  });

  it('applies the children and status the hook answers', async () => {
    await cluster.apply(
      '{apiVersion: hooks.e2e.scoby.dev/v1, kind: Mailer, metadata: {name: orders, namespace: hooks}, spec: {host: mail.internal}}',
    );
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'hooks',
      'mailer-orders',
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
    expect(instance.metadata.finalizers).toEqual(['scoby.triggermesh.io/finalizer']);
    expect(statusOf(instance).annotations).toEqual({ 'example.triggermesh.io/hooked': 'true' });
    expect(conditionsOf(instance)).toEqual([
      { type: 'Approved', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'HookChecked', status: 'True', reason: 'HookOK', message: 'checked by the example hook' },
      { type: 'Ready', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      // Not Ready for a reason that is no failure: on its way (children-and-status.md §8.12).
      { type: 'Reconciling', status: 'True', reason: 'Progressing', message: 'Approved=Unknown: UNKNOWN' },
    ]);
    console.log(`[e2e] hook ${hook.url} request log: ${JSON.stringify(requestLog)}`);
    expect(requestLog).toContainEqual({
      phase: 'pre-reconcile',
      instance: 'Mailer hooks/orders',
      children: ['deployment'],
      answer: 'ok',
    });
    expect(requestLog.filter((line) => line.phase !== 'pre-reconcile')).toEqual([]);
  });

  it('keeps a deleted instance until the finalize hook agrees', async () => {
    await cluster.remove({
      apiVersion: INSTANCE[0],
      kind: INSTANCE[1],
      metadata: { namespace: INSTANCE[2], name: INSTANCE[3] },
    });
    const held = await cluster.waitForObject(
      ...INSTANCE,
      'to report the refused finalization',
      (object) => conditionOf(object, 'Ready')?.reason === 'HookFailed',
    );
    expect(held.metadata.deletionTimestamp).toBeDefined();
    expect(conditionOf(held, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'HookFailed',
      message: 'finalize hook: HTTP 409: waiting for condition Approved',
    });
    expect(await cluster.waitForEvents('hooks', 'orders', 'Mailer', 'HookFailed')).toContainEqual({
      type: 'Warning',
      reason: 'HookFailed',
      message: 'finalize hook: HTTP 409: waiting for condition Approved',
    });

    await approve(cluster, INSTANCE);
    await cluster.waitForGone(...INSTANCE);
    await cluster.waitForCollected('apps/v1', 'Deployment', 'hooks', 'mailer-orders');
    const finalizeCalls = requestLog.filter((line) => line.phase === 'finalize');
    console.log(`[e2e] finalize calls seen by the hook: ${JSON.stringify(finalizeCalls)}`);
    expect(finalizeCalls[0]).toEqual({
      phase: 'finalize',
      instance: 'Mailer hooks/orders',
      answer: 'waiting for condition Approved',
    });
    expect(finalizeCalls.at(-1)).toEqual({
      phase: 'finalize',
      instance: 'Mailer hooks/orders',
      answer: 'ok',
    });
  });
});
