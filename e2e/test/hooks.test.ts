/**
 * Hooks with the example hook app: it reshapes the Deployment (adds EXAMPLE_HOOK=on), reports its own
 * condition, and gates deletion until the instance carries an Approved=True condition.
 */
import { createExampleHook } from '@scoby/example-hook';
import type { HookServer } from '@scoby/hooks-v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approve } from '../src/approval.ts';
import {
  ADAPTER_IMAGE,
  adapterOf,
  clusterForScenario,
  conditionOf,
  conditionsOf,
  registeredKindYaml,
  statusOf,
  type ClusterHandle,
} from '../src/index.ts';
import { inProcessControllerOnly } from '../src/node-only.ts';

const KIND = { group: 'hooks.e2e.scoby.dev', kind: 'Mailer', plural: 'mailers' };
const INSTANCE = ['hooks.e2e.scoby.dev/v1', 'Mailer', 'hooks', 'orders'] as const;

const skipped = inProcessControllerOnly(
  'the example hook served by the test process on 127.0.0.1',
  'test/node/in-cluster-hook.test.ts runs it in the cluster instead',
);

let cluster: ClusterHandle;
let hook: HookServer;
beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  hook = await createExampleHook({ conditionType: 'HookChecked', finalizeWhenCondition: 'Approved' });
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

describe.skipIf(skipped !== undefined)('hooks', () => {
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
    ]);
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
    expect(await cluster.events('hooks', 'orders', 'Mailer')).toContainEqual({
      type: 'Warning',
      reason: 'HookFailed',
      message: 'finalize hook: HTTP 409: waiting for condition Approved',
    });

    await approve(cluster, INSTANCE);
    await cluster.waitForGone(...INSTANCE);
    await cluster.waitForGone('apps/v1', 'Deployment', 'hooks', 'mailer-orders');
  });
});
