/**
 * `scoby render` prints the status the controller writes in every condition case, not only the goldens'
 * Ready=Unknown and Ready=True (render-golden.test.ts): Ready=False from each child kind (Deployment,
 * Knative Service) with the message that names the blocking child where it can (docs/spec/children-and-status.md
 * §8.4), and the failures of §8.5 — a Service of the child's name that the instance does not control,
 * a failing pre-reconcile hook — where render fails with the reason and message the controller writes
 * into Ready. (ServiceReady=False never reaches the status: a Service that cannot be written fails the
 * reconcile with ApplyFailed first, and a hook may not drop the Service from the children map.) Each case is rendered from the instance and children as the
 * controller left them on the in-memory API server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { liveChildren, renderLive } from '../support/golden-render.ts';
import {
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
} from '../support/hooks-fixtures.ts';
import { errorReply, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import { conditionOf, registrationObject } from '../support/scoby.ts';

const NAMESPACE = 'conditions';
const DEPLOYMENT_KINDS = [
  ['apps/v1', 'Deployment'],
  ['v1', 'Service'],
] as const;
const KNATIVE_KINDS = [['serving.knative.dev/v1', 'Service']] as const;

const greeterCrd = crdFor({ group: 'greet.example.com', kind: 'Greeter', plural: 'greeters' });
const greeterRegistration = hookedRegistration('greeter', 'greeters.greet.example.com');
const functionCrd = crdFor({ group: 'fn.example.com', kind: 'Function', plural: 'functions' });
const functionRegistration = registrationObject('fn', {
  crd: 'functions.fn.example.com',
  workload: { fromImage: { repo: 'registry.example.com/fn:1' }, formFactor: { knativeService: {} } },
});
const hookedCrd = crdFor({ group: 'hooked.example.com', kind: 'Hooked', plural: 'hookeds' });
let hookedRegistrationObject: KubeObject;

let cluster: TestCluster;
let hook: ScriptedHook;

beforeAll(async () => {
  // The test writes the children's status as their controllers would.
  cluster = await startTestCluster({ server: { simulate: { deployments: false, knativeServices: false } } });
  hook = await startScriptedHook((request) =>
    request.body.object.metadata.name === 'refused'
      ? errorReply(500, { message: 'quota service down' })
      : { status: 204 },
  );
  hookedRegistrationObject = hookedRegistration('hooked', 'hookeds.hooked.example.com', {
    hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
  });
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await cluster.apply(crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' }));
  for (const object of [greeterCrd, functionCrd, hookedCrd]) await cluster.apply(object);
  await cluster.waitFor('Knative API served', () =>
    cluster.client.resourceFor('serving.knative.dev/v1', 'Service'),
  );
  for (const object of [greeterRegistration, functionRegistration, hookedRegistrationObject])
    await cluster.apply(object);
  for (const name of ['greeter', 'fn', 'hooked']) await registrationReady(cluster, name);
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

function instanceOf(crd: KubeObject, name: string): KubeObject {
  const spec = crd.spec as { group: string; names: { kind: string } };
  return {
    apiVersion: `${spec.group}/v1`,
    kind: spec.names.kind,
    metadata: { name, namespace: NAMESPACE },
    spec: {},
  };
}

async function readyWhere(
  crd: KubeObject,
  name: string,
  description: string,
  probe: (ready: ReturnType<typeof conditionOf>) => boolean,
): Promise<KubeObject> {
  const { apiVersion, kind } = instanceOf(crd, name);
  return instanceWhere(cluster, apiVersion, kind, NAMESPACE, name, description, (object) =>
    probe(conditionOf(object, 'Ready')),
  );
}

async function patchStatus(apiVersion: string, kind: string, name: string, status: unknown): Promise<void> {
  await mergePatch(cluster, { apiVersion, kind, namespace: NAMESPACE, name }, { status }, 'status');
}

describe('scoby render prints the status the controller wrote (in-memory API server)', () => {
  it('Ready=False from the Deployment names it in the message', async () => {
    const created = await cluster.apply(instanceOf(greeterCrd, 'blocked'));
    await readyWhere(greeterCrd, 'blocked', 'Ready=Unknown', (ready) => ready?.status === 'Unknown');
    await patchStatus('apps/v1', 'Deployment', 'greeter-blocked', {
      conditions: [
        {
          type: 'Available',
          status: 'False',
          reason: 'MinimumReplicasUnavailable',
          message: 'Deployment does not have minimum availability.',
        },
      ],
    });
    const blocked = await readyWhere(
      greeterCrd,
      'blocked',
      'Ready=False',
      (ready) => ready?.status === 'False',
    );
    expect(conditionOf(blocked, 'Ready')?.message).toBe(
      `DeploymentReady=False for Deployment ${NAMESPACE}/greeter-blocked: MinimumReplicasUnavailable: ` +
        'Deployment does not have minimum availability.',
    );
    expect(
      await renderLive({
        registration: greeterRegistration,
        crd: greeterCrd,
        instance: blocked,
        observed: await liveChildren(cluster, created, DEPLOYMENT_KINDS),
      }),
    ).toEqual({ status: blocked.status });
  });

  it('Ready=False/ApplyFailed: a Service of the child’s name that the instance does not control', async () => {
    await cluster.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'greeter-taken', namespace: NAMESPACE },
      spec: { ports: [{ port: 80 }] },
    });
    const created = await cluster.apply(instanceOf(greeterCrd, 'taken'));
    const failed = await readyWhere(
      greeterCrd,
      'taken',
      'Ready=False/ApplyFailed',
      (ready) => ready?.reason === 'ApplyFailed',
    );
    const ready = conditionOf(failed, 'Ready');
    expect(ready?.message).toBe(
      `Service "${NAMESPACE}/greeter-taken" exists and is not controlled by Greeter "taken"`,
    );
    const taken = await cluster.get('v1', 'Service', NAMESPACE, 'greeter-taken');
    expect(
      await renderLive({
        registration: greeterRegistration,
        crd: greeterCrd,
        instance: failed,
        observed: [...(await liveChildren(cluster, created, DEPLOYMENT_KINDS)), taken!],
      }),
    ).toEqual({ failure: `${ready?.reason}: ${ready?.message}\n` });
  });

  it('Ready=False from the Knative Service', async () => {
    const created = await cluster.apply(instanceOf(functionCrd, 'cold'));
    await cluster.waitFor('the Knative Service', () =>
      cluster.get('serving.knative.dev/v1', 'Service', NAMESPACE, 'fn-cold'),
    );
    await patchStatus('serving.knative.dev/v1', 'Service', 'fn-cold', {
      conditions: [
        { type: 'Ready', status: 'False', reason: 'RevisionMissing', message: 'Configuration is waiting.' },
      ],
    });
    const blocked = await readyWhere(
      functionCrd,
      'cold',
      'Ready=False',
      (ready) => ready?.status === 'False',
    );
    expect(conditionOf(blocked, 'Ready')?.message).toBe(
      'KnativeServiceReady=False: RevisionMissing: Configuration is waiting.',
    );
    expect(
      await renderLive({
        registration: functionRegistration,
        crd: functionCrd,
        instance: blocked,
        observed: await liveChildren(cluster, created, KNATIVE_KINDS),
      }),
    ).toEqual({ status: blocked.status });
  });

  it('a failing pre-reconcile hook: render fails with the reason and message of Ready', async () => {
    const created = await cluster.apply(instanceOf(hookedCrd, 'refused'));
    const failed = await readyWhere(
      hookedCrd,
      'refused',
      'Ready=False/HookFailed',
      (ready) => ready?.reason === 'HookFailed',
    );
    const ready = conditionOf(failed, 'Ready');
    expect(ready?.message).toBe('pre-reconcile hook: HTTP 500: quota service down');
    expect(
      await renderLive({
        registration: hookedRegistrationObject,
        crd: hookedCrd,
        instance: failed,
        observed: await liveChildren(cluster, created, DEPLOYMENT_KINDS),
        hooks: true,
      }),
    ).toEqual({ failure: `${ready?.reason}: ${ready?.message}\n` });
  });

  it('Ready=Unknown while the Deployment has no Available condition, then Ready=True', async () => {
    const created = await cluster.apply(instanceOf(greeterCrd, 'starting'));
    const unknown = await readyWhere(
      greeterCrd,
      'starting',
      'Ready=Unknown',
      (ready) => ready?.status === 'Unknown',
    );
    expect(conditionOf(unknown, 'DeploymentReady')).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentUnknown',
    });
    const render = async (instance: KubeObject) =>
      renderLive({
        registration: greeterRegistration,
        crd: greeterCrd,
        instance,
        observed: await liveChildren(cluster, created, DEPLOYMENT_KINDS),
      });
    expect(await render(unknown)).toEqual({ status: unknown.status });

    await patchStatus('apps/v1', 'Deployment', 'greeter-starting', {
      conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: '' }],
    });
    const ready = await readyWhere(greeterCrd, 'starting', 'Ready=True', (ready) => ready?.status === 'True');
    expect(await render(ready)).toEqual({ status: ready.status });
  });
});
