/**
 * `scoby render` prints the status the controller writes in every condition case, not only the goldens'
 * Ready=Unknown and Ready=True (render-golden.test.ts): Ready=False from each child kind (Deployment,
 * Knative Service) with the message that names the blocking child where it can
 * (docs/spec/children-and-status.md §8.4), Ready=True with and without a hook, and the failures of
 * §8.5 — a Service of the child's name that the instance does not control, a failing pre-reconcile
 * hook — where render fails with the reason and message the controller writes into Ready.
 * (ServiceReady=False never reaches the status: a Service that cannot be written fails the reconcile
 * with ApplyFailed first, and a hook may not drop the Service from the children map.) Each case is
 * rendered from the instance and children as the controller left them, alike on the in-memory server
 * and on the real control plane; no Knative controller runs on either, so the test writes the Knative
 * Service's status as Knative would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { ScenarioBackend } from './backend.ts';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { liveChildren, renderLive } from './golden-render.ts';
import { hookedRegistration, instanceWhere, mergePatch, registrationReady } from './hooks-fixtures.ts';
import { errorReply, startScriptedHook, type ScriptedHook } from './hooks-server.ts';
import { conditionOf, namespaceObject, registrationObject } from './scoby.ts';

export const NAMESPACE = 'conditions';
const DEPLOYMENT_KINDS = [
  ['apps/v1', 'Deployment'],
  ['v1', 'Service'],
] as const;
const KNATIVE_KINDS = [['serving.knative.dev/v1', 'Service']] as const;
/** The registered kinds, for the roles a cluster admin writes on the real control plane. */
export const KINDS = [
  { group: 'greet.example.com', plural: 'greeters' },
  { group: 'fn.example.com', plural: 'functions' },
  { group: 'hooked.example.com', plural: 'hookeds' },
];

const greeterCrd = crdFor({ group: 'greet.example.com', kind: 'Greeter', plural: 'greeters' });
const greeterRegistration = hookedRegistration('render-greeter', 'greeters.greet.example.com');
const functionCrd = crdFor({ group: 'fn.example.com', kind: 'Function', plural: 'functions' });
const functionRegistration = registrationObject('render-fn', {
  crd: 'functions.fn.example.com',
  workload: { fromImage: { repo: 'registry.example.com/fn:1' }, formFactor: { knativeService: {} } },
});
const hookedCrd = crdFor({ group: 'hooked.example.com', kind: 'Hooked', plural: 'hookeds' });
const knativeCrd = crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' });

export interface RenderConditionsBackend extends ScenarioBackend {
  /** Where the Deployment of `blocked` is created: on the real control plane, a namespace with a zero-pod quota. */
  blockedNamespace: string;
  /**
   * The Deployment's controller reports it unavailable (Available=False/MinimumReplicasUnavailable):
   * in memory the test writes that, on the real control plane kube-controller-manager does.
   */
  deploymentUnavailable(cluster: ClusterVerbs, namespace: string, name: string): Promise<void>;
  /** ... and available: in memory the test writes that, on the real control plane kwok's pod makes it so. */
  deploymentAvailable(cluster: ClusterVerbs, namespace: string, name: string): Promise<void>;
  /**
   * Whether the Deployment's status is the test's alone (in memory): then Ready=Unknown, before any
   * Available condition, lasts until the test writes one, and is rendered too. On the real control
   * plane kube-controller-manager writes it within moments.
   */
  testWritesDeploymentStatus: boolean;
}

function instanceOf(crd: KubeObject, namespace: string, name: string): KubeObject {
  const spec = crd.spec as { group: string; names: { kind: string } };
  return { apiVersion: `${spec.group}/v1`, kind: spec.names.kind, metadata: { name, namespace }, spec: {} };
}

/** Declares the scenario's tests on the backend `start` gives (called once, before them), named `on`. */
export function renderConditionsScenario(on: string, start: () => Promise<RenderConditionsBackend>): void {
  let backend: RenderConditionsBackend;
  let cluster: ClusterVerbs;
  let hook: ScriptedHook;
  let hookedRegistrationObject: KubeObject;

  beforeAll(async () => {
    backend = await start();
    cluster = backend.cluster;
    hook = await startScriptedHook((request) =>
      request.body.object.metadata.name === 'refused'
        ? errorReply(500, { message: 'quota service down' })
        : { status: 204 },
    );
    hookedRegistrationObject = hookedRegistration('render-hooked', 'hookeds.hooked.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
    });
    await cluster.apply(namespaceObject(NAMESPACE));
    // Another file on the same real control plane may have installed it already.
    if (
      (await cluster.get(
        knativeCrd.apiVersion,
        knativeCrd.kind,
        undefined,
        knativeCrd.metadata.name ?? '',
      )) === undefined
    )
      await cluster.apply(knativeCrd);
    for (const object of [greeterCrd, functionCrd, hookedCrd]) await cluster.apply(object);
    await cluster.waitFor('Knative API served', () =>
      cluster.client.resourceFor('serving.knative.dev/v1', 'Service'),
    );
    for (const crd of [greeterCrd, functionCrd, hookedCrd]) {
      const { apiVersion, kind } = instanceOf(crd, NAMESPACE, '');
      await cluster.waitFor(`${kind} served`, () => cluster.client.resourceFor(apiVersion, kind));
    }
    for (const object of [greeterRegistration, functionRegistration, hookedRegistrationObject])
      await cluster.apply(object);
    for (const name of ['render-greeter', 'render-fn', 'render-hooked'])
      await registrationReady(cluster, name);
  });
  afterAll(async () => {
    await backend?.stop();
    await hook?.close();
  });

  function readyWhere(
    instance: KubeObject,
    description: string,
    probe: (ready: ReturnType<typeof conditionOf>) => boolean,
  ): Promise<KubeObject> {
    const { apiVersion, kind, metadata } = instance;
    return instanceWhere(
      cluster,
      apiVersion,
      kind,
      metadata.namespace ?? '',
      metadata.name ?? '',
      description,
      (object) => probe(conditionOf(object, 'Ready')),
    );
  }

  describe(`scoby render prints the status the controller wrote (${on})`, () => {
    it('Ready=False from the Deployment names it in the message', async () => {
      const namespace = backend.blockedNamespace;
      const created = await cluster.apply(instanceOf(greeterCrd, namespace, 'blocked'));
      if (backend.testWritesDeploymentStatus)
        await readyWhere(created, 'Ready=Unknown', (ready) => ready?.status === 'Unknown');
      await backend.deploymentUnavailable(cluster, namespace, 'render-greeter-blocked');
      const blocked = await readyWhere(
        created,
        'Ready=False',
        (ready) =>
          ready?.status === 'False' && ready.message.startsWith('DeploymentReady=False for Deployment'),
      );
      expect(conditionOf(blocked, 'Ready')?.message).toBe(
        `DeploymentReady=False for Deployment ${namespace}/render-greeter-blocked: MinimumReplicasUnavailable: ` +
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
        metadata: { name: 'render-greeter-taken', namespace: NAMESPACE },
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
        `Service "${NAMESPACE}/render-greeter-taken" exists and is not controlled by Greeter "taken"`,
      );
      const taken = {
        ...(await cluster.get('v1', 'Service', NAMESPACE, 'render-greeter-taken'))!,
        apiVersion: 'v1',
        kind: 'Service',
      };
      expect(
        await renderLive({
          registration: greeterRegistration,
          crd: greeterCrd,
          instance: failed,
          observed: [...(await liveChildren(cluster, created, DEPLOYMENT_KINDS)), taken],
        }),
      ).toEqual({ failure: `${ready?.reason}: ${ready?.message}\n` });
    });

    it('Ready=False from the Knative Service', async () => {
      const created = await cluster.apply(instanceOf(functionCrd, NAMESPACE, 'cold'));
      await cluster.waitFor('the Knative Service', () =>
        cluster.get('serving.knative.dev/v1', 'Service', NAMESPACE, 'render-fn-cold'),
      );
      await mergePatch(
        cluster,
        {
          apiVersion: 'serving.knative.dev/v1',
          kind: 'Service',
          namespace: NAMESPACE,
          name: 'render-fn-cold',
        },
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
        'status',
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
          observed: await liveChildren(cluster, created, KNATIVE_KINDS),
        }),
      ).toEqual({ status: blocked.status });
    });

    it('a failing pre-reconcile hook: render fails with the reason and message of Ready', async () => {
      const created = await cluster.apply(instanceOf(hookedCrd, NAMESPACE, 'refused'));
      const failed = await readyWhere(
        created,
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

    it.each([
      { registration: 'render-greeter', hooks: false },
      { registration: 'render-hooked', hooks: true },
    ])(
      'Ready=True once the Deployment is available ($registration, hooks: $hooks), and Ready=Unknown before where that lasts',
      async ({ registration, hooks }) => {
        const [crd, object] =
          registration === 'render-greeter'
            ? [greeterCrd, greeterRegistration]
            : [hookedCrd, hookedRegistrationObject];
        const created = await cluster.apply(instanceOf(crd, NAMESPACE, 'starting'));
        const render = async (instance: KubeObject) =>
          renderLive({
            registration: object,
            crd,
            instance,
            observed: await liveChildren(cluster, created, DEPLOYMENT_KINDS),
            hooks,
          });
        if (backend.testWritesDeploymentStatus) {
          const unknown = await readyWhere(created, 'Ready=Unknown', (ready) => ready?.status === 'Unknown');
          expect(conditionOf(unknown, 'DeploymentReady')).toMatchObject({
            status: 'Unknown',
            reason: 'DeploymentUnknown',
          });
          expect(await render(unknown)).toEqual({ status: unknown.status });
        }
        await backend.deploymentAvailable(cluster, NAMESPACE, `${registration}-starting`);
        const ready = await readyWhere(created, 'Ready=True', (condition) => condition?.status === 'True');
        expect(await render(ready)).toEqual({ status: ready.status });
      },
    );
  });
}
