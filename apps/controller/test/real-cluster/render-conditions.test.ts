/**
 * On the real control plane, with Scoby's ServiceAccount: `scoby render` prints the status the
 * controller wrote in each condition case, rendered from the instance and the children as the
 * controller left them on kube-apiserver (test/integration/render-conditions.test.ts is the in-memory
 * twin). The conditions come from the real controllers: a ResourceQuota of zero pods keeps the
 * Deployment unavailable (kube-controller-manager reports Available=False), kwok's pods make another
 * one available; a Knative Service's status is written as Knative would; a Service of the child's
 * name that the instance does not control, and a failing pre-reconcile hook, fail the reconcile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor } from '../support/cluster.ts';
import { liveChildren, renderLive } from '../support/golden-render.ts';
import { hookedRegistration } from '../support/hooks-fixtures.ts';
import { errorReply, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import {
  conditionOf,
  namespaceObject,
  registrationObject,
  registrationTarget,
  waitForCondition,
} from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { startRealCluster, type RealCluster } from './support/real-cluster.ts';

const GROUP = 'render.real.example.com';
const FN_GROUP = 'fn.render.real.example.com';
const QUOTA_NAMESPACE = 'render-real-quota';
const NAMESPACE = 'render-real';
const DEPLOYMENT_KINDS = [
  ['apps/v1', 'Deployment'],
  ['v1', 'Service'],
] as const;

const greeterCrd = crdFor({ group: GROUP, kind: 'Greeter', plural: 'greeters' });
const functionCrd = crdFor({ group: FN_GROUP, kind: 'Function', plural: 'functions' });
const knativeCrd = crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' });
const functionRegistration = registrationObject('fn-render-real', {
  crd: `functions.${FN_GROUP}`,
  workload: { fromImage: { repo: 'registry.example.com/fn:1' }, formFactor: { knativeService: {} } },
});
let greeterRegistration: KubeObject;

let cluster: RealCluster;
let hook: ScriptedHook;

beforeAll(async () => {
  cluster = startRealCluster();
  hook = await startScriptedHook((request) =>
    request.body.object.metadata.name === 'refused'
      ? errorReply(500, { message: 'quota service down' })
      : { status: 204 },
  );
  greeterRegistration = hookedRegistration('greeter-render-real', `greeters.${GROUP}`, {
    hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
  });
  await cluster.apply(registeredKindRole(GROUP, 'greeters'));
  await cluster.apply(registeredKindRole(FN_GROUP, 'functions'));
  for (const namespace of [QUOTA_NAMESPACE, NAMESPACE]) await cluster.apply(namespaceObject(namespace));
  await cluster.apply({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { namespace: QUOTA_NAMESPACE, name: 'no-pods' },
    spec: { hard: { pods: '0' } },
  });
  // kube-apiserver enforces a quota only once the quota controller has written its status.hard.
  await cluster.waitFor(`ResourceQuota ${QUOTA_NAMESPACE}/no-pods enforced`, async () => {
    const quota = await cluster.get('v1', 'ResourceQuota', QUOTA_NAMESPACE, 'no-pods');
    const hard = (quota?.status as { hard?: Record<string, string> } | undefined)?.hard;
    return hard?.['pods'] === '0' ? quota : undefined;
  });
  if (
    (await cluster.get(
      'apiextensions.k8s.io/v1',
      'CustomResourceDefinition',
      undefined,
      'services.serving.knative.dev',
    )) === undefined
  )
    await cluster.apply(knativeCrd);
  for (const crd of [greeterCrd, functionCrd]) await cluster.apply(crd);
  await cluster.waitFor('Knative API served', () =>
    cluster.client.resourceFor('serving.knative.dev/v1', 'Service'),
  );
  for (const registration of [greeterRegistration, functionRegistration]) {
    await cluster.apply(registration);
    await waitForCondition(cluster, registrationTarget(registration.metadata.name ?? ''), 'Ready', 'True');
  }
});
afterAll(async () => {
  await cluster?.stop();
  await hook?.close();
});

function instanceOf(crd: KubeObject, namespace: string, name: string): KubeObject {
  const spec = crd.spec as { group: string; names: { kind: string } };
  return { apiVersion: `${spec.group}/v1`, kind: spec.names.kind, metadata: { name, namespace }, spec: {} };
}

async function readyWhere(
  instance: KubeObject,
  description: string,
  probe: (ready: ReturnType<typeof conditionOf>) => boolean,
): Promise<KubeObject> {
  const { apiVersion, kind, metadata } = instance;
  return cluster.waitFor(`${kind} ${metadata.namespace}/${metadata.name}: ${description}`, async () => {
    const object = await cluster.get(apiVersion, kind, metadata.namespace, metadata.name ?? '');
    return object && probe(conditionOf(object, 'Ready')) ? object : undefined;
  });
}

describe('scoby render prints the status the controller wrote (real control plane)', () => {
  it('Ready=False from a Deployment a zero-pod quota keeps unavailable', async () => {
    const created = await cluster.apply(instanceOf(greeterCrd, QUOTA_NAMESPACE, 'blocked'));
    const blocked = await readyWhere(
      created,
      'Ready=False',
      (ready) =>
        ready?.status === 'False' && ready.message.startsWith('DeploymentReady=False for Deployment'),
    );
    expect(conditionOf(blocked, 'Ready')?.message).toBe(
      `DeploymentReady=False for Deployment ${QUOTA_NAMESPACE}/greeter-render-real-blocked: ` +
        'MinimumReplicasUnavailable: Deployment does not have minimum availability.',
    );
    expect(
      await renderLive({
        registration: greeterRegistration,
        crd: greeterCrd,
        instance: blocked,
        observed: await liveChildren(cluster, created, DEPLOYMENT_KINDS),
        hooks: true,
      }),
    ).toEqual({ status: blocked.status });
  });

  it('Ready=True once kwok’s pod makes the Deployment available', async () => {
    const created = await cluster.apply(instanceOf(greeterCrd, NAMESPACE, 'running'));
    const ready = await readyWhere(created, 'Ready=True', (condition) => condition?.status === 'True');
    expect(
      await renderLive({
        registration: greeterRegistration,
        crd: greeterCrd,
        instance: ready,
        observed: await liveChildren(cluster, created, DEPLOYMENT_KINDS),
        hooks: true,
      }),
    ).toEqual({ status: ready.status });
  });

  it('Ready=False from a Knative Service whose status Knative wrote', async () => {
    const created = await cluster.apply(instanceOf(functionCrd, NAMESPACE, 'cold'));
    await cluster.waitFor('the Knative Service', () =>
      cluster.get('serving.knative.dev/v1', 'Service', NAMESPACE, 'fn-render-real-cold'),
    );
    const ksvc = await cluster.client.resourceFor('serving.knative.dev/v1', 'Service');
    await cluster.client.patch(
      ksvc!,
      NAMESPACE,
      'fn-render-real-cold',
      {
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              reason: 'RevisionMissing',
              message: 'Configuration is waiting.',
            },
          ],
        },
      },
      { subresource: 'status' },
    );
    const blocked = await readyWhere(created, 'Ready=False', (ready) => ready?.status === 'False');
    expect(conditionOf(blocked, 'Ready')?.message).toBe(
      'KnativeServiceReady=False: RevisionMissing: Configuration is waiting.',
    );
    expect(
      await renderLive({
        registration: functionRegistration,
        crd: functionCrd,
        instance: blocked,
        observed: await liveChildren(cluster, created, [['serving.knative.dev/v1', 'Service']]),
      }),
    ).toEqual({ status: blocked.status });
  });

  it('Ready=False/ApplyFailed: a Service of the child’s name that the instance does not control', async () => {
    await cluster.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'greeter-render-real-taken', namespace: NAMESPACE },
      spec: { ports: [{ port: 80 }] },
    });
    const created = await cluster.apply(instanceOf(greeterCrd, NAMESPACE, 'taken'));
    const failed = await readyWhere(
      created,
      'Ready=False/ApplyFailed',
      (ready) => ready?.reason === 'ApplyFailed',
    );
    const ready = conditionOf(failed, 'Ready');
    expect(ready?.message).toBe(
      `Service "${NAMESPACE}/greeter-render-real-taken" exists and is not controlled by Greeter "taken"`,
    );
    const taken = {
      ...(await cluster.get('v1', 'Service', NAMESPACE, 'greeter-render-real-taken'))!,
      apiVersion: 'v1',
      kind: 'Service',
    };
    expect(
      await renderLive({
        registration: greeterRegistration,
        crd: greeterCrd,
        instance: failed,
        observed: [...(await liveChildren(cluster, created, DEPLOYMENT_KINDS)), taken],
        hooks: true,
      }),
    ).toEqual({ failure: `${ready?.reason}: ${ready?.message}\n` });
  });

  it('a failing pre-reconcile hook: render fails with the reason and message of Ready', async () => {
    const created = await cluster.apply(instanceOf(greeterCrd, NAMESPACE, 'refused'));
    const failed = await readyWhere(
      created,
      'Ready=False/HookFailed',
      (ready) => ready?.reason === 'HookFailed',
    );
    const ready = conditionOf(failed, 'Ready');
    expect(ready?.message).toBe('pre-reconcile hook: HTTP 500: quota service down');
    expect(
      await renderLive({
        registration: greeterRegistration,
        crd: greeterCrd,
        instance: failed,
        observed: await liveChildren(cluster, created, DEPLOYMENT_KINDS),
        hooks: true,
      }),
    ).toEqual({ failure: `${ready?.reason}: ${ready?.message}\n` });
  });
});
