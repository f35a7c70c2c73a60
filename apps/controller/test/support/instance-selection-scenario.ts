/**
 * Instance selection (docs/spec/registration.md §3.6, §6.8), run alike on the in-memory server and on
 * the real control plane: a canary registration beside a stable one, instances moving between them
 * with their children and one writer at a time, the counts and Events of the registration that does
 * not serve, a registration behind an older one that selects everything, namespaceSelector following
 * a relabelled Namespace, an instance that leaves every selection keeping its children and finalizer
 * until it is deleted, and an invalid selector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { ScenarioBackend, ServerWrites } from './backend.ts';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { mergePatch } from './hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from './hooks-server.ts';
import {
  adapterOf,
  conditionsOf,
  eventViews,
  namespaceObject,
  REGISTRATION_API,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
} from './scoby.ts';

const SHOP = 'select-shop';
const PROD = 'select-prod';
const DEV = 'select-dev';
const CANARY = { group: 'canary.example.com', kind: 'Queue', plural: 'queues' };
const ZONES = { group: 'zones.example.com', kind: 'Zone', plural: 'zones' };
const VAULTS = { group: 'leave.example.com', kind: 'Vault', plural: 'vaults' };
/** The registered kinds, for the roles a cluster admin writes on the real control plane. */
export const KINDS = [CANARY, ZONES, VAULTS];

export interface InstanceSelectionBackend extends ScenarioBackend {
  /** How long to wait before judging that something did not happen. */
  settleMs: number;
  /** In memory only: the server's log shows which Deployment writes a move made, and nothing else. */
  serverWrites?: ServerWrites;
}

/** status.instances of a registration (registration.md §5.1). */
const instancesOf = (registration: KubeObject | undefined) =>
  (registration?.status as { instances?: { served: number; servedByOthers: number } } | undefined)?.instances;

const image = (deployment: KubeObject | undefined) => adapterOf(deployment).image;

function instance(
  api: string,
  kind: string,
  namespace: string,
  name: string,
  labels?: Record<string, string>,
) {
  return { apiVersion: api, kind, metadata: { name, namespace, ...(labels ? { labels } : {}) }, spec: {} };
}

async function registerCrd(cluster: ClusterVerbs, crd: typeof CANARY): Promise<void> {
  await cluster.apply(crdFor(crd));
  await cluster.waitFor(
    `the CRD ${crd.plural}.${crd.group} served`,
    async () => (await cluster.client.resourceFor(`${crd.group}/v1`, crd.kind)) !== undefined,
  );
}

/** Declares the scenario's tests on the backend `start` gives (called once, before them), named `on`. */
export function instanceSelectionScenario(on: string, start: () => Promise<InstanceSelectionBackend>): void {
  let backend: InstanceSelectionBackend;
  let cluster: ClusterVerbs;
  let hook: ScriptedHook;

  const deployment = (namespace: string, name: string) =>
    cluster.get('apps/v1', 'Deployment', namespace, name);
  const gone = (namespace: string, name: string) => async () =>
    (await deployment(namespace, name)) === undefined;
  const counts = async (name: string) =>
    instancesOf(await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, name));
  const registrationEvents = async (name: string) => eventViews(await cluster.events('default', name));

  beforeAll(async () => {
    backend = await start();
    cluster = backend.cluster;
    hook = await startScriptedHook(NO_CHANGE);
    await cluster.apply(namespaceObject(SHOP));
  });
  afterAll(async () => {
    await backend?.stop();
    await hook?.close();
  });

  describe(`a canary registration beside a stable one (${on})`, () => {
    const api = `${CANARY.group}/v1`;
    const crd = `${CANARY.plural}.${CANARY.group}`;
    const target = (name: string) => ({ apiVersion: api, kind: 'Queue', namespace: SHOP, name });

    beforeAll(async () => {
      await registerCrd(cluster, CANARY);
      await cluster.apply(
        registrationObject('canary', {
          crd,
          workload: { fromImage: { repo: 'registry.example.com/queue:2-rc' } },
          selector: { matchLabels: { track: 'canary' } },
        }),
      );
      await waitForCondition(cluster, registrationTarget('canary'), 'Ready', 'True');
      // creationTimestamp has whole seconds: the stable one is younger whatever the names.
      await sleep(1100);
      await cluster.apply(
        registrationObject('stable', {
          crd,
          workload: { fromImage: { repo: 'registry.example.com/queue:1' } },
        }),
      );
      await waitForCondition(cluster, registrationTarget('stable'), 'Ready', 'True');
    });

    it('serves labelled instances with the canary image and the others with the stable one', async () => {
      await cluster.apply(instance(api, 'Queue', SHOP, 'jobs', { track: 'canary' }));
      await cluster.apply(instance(api, 'Queue', SHOP, 'mail'));
      expect(image(await cluster.waitFor('canary child', () => deployment(SHOP, 'canary-jobs')))).toBe(
        'registry.example.com/queue:2-rc',
      );
      expect(image(await cluster.waitFor('stable child', () => deployment(SHOP, 'stable-mail')))).toBe(
        'registry.example.com/queue:1',
      );
      await waitForCondition(cluster, target('jobs'), 'Ready', 'True');
      await waitForCondition(cluster, target('mail'), 'Ready', 'True');
      expect(await deployment(SHOP, 'stable-jobs')).toBeUndefined();
      expect(await deployment(SHOP, 'canary-mail')).toBeUndefined();
    });

    it('counts what each serves and what an older one serves instead, and says which instance', async () => {
      await cluster.waitFor(
        'stable counts',
        async () =>
          JSON.stringify(await counts('stable')) === JSON.stringify({ served: 1, servedByOthers: 1 }),
      );
      expect(await counts('canary')).toEqual({ served: 1, servedByOthers: 0 });
      await cluster.waitFor('the Event on stable', async () =>
        (await registrationEvents('stable')).some((event) => event.reason === 'InstanceServedByOther'),
      );
      expect(
        (await registrationEvents('stable')).filter((event) => event.reason === 'InstanceServedByOther'),
      ).toEqual([
        {
          type: 'Normal',
          reason: 'InstanceServedByOther',
          message: `instance ${SHOP}/jobs is served by CRDRegistration "canary", which is older and selects it too`,
        },
      ]);
      expect(
        (await registrationEvents('canary')).filter((event) => event.reason === 'InstanceServedByOther'),
      ).toEqual([]);
    });

    it('moves an instance back and forth with its children: nothing lost, one writer at a time', async () => {
      for (const [labels, from, to, toImage] of [
        [{ track: null }, 'canary-jobs', 'stable-jobs', 'registry.example.com/queue:1'],
        [{ track: 'canary' }, 'stable-jobs', 'canary-jobs', 'registry.example.com/queue:2-rc'],
      ] as const) {
        backend.serverWrites?.mark();
        await mergePatch(cluster, target('jobs'), { metadata: { labels } });
        const moved = await cluster.waitFor(`${to} created`, () => deployment(SHOP, to));
        expect(image(moved)).toBe(toImage);
        await cluster.waitFor(`${from} pruned`, gone(SHOP, from));
        await sleep(backend.settleMs);
        // One writer: the old child stays gone and the new one is not rewritten.
        expect(await deployment(SHOP, from)).toBeUndefined();
        expect((await deployment(SHOP, to))?.metadata.generation).toBe(1);
        // In memory, the server's log: the registration that lost it writes nothing more than one prune.
        if (backend.serverWrites)
          expect(backend.serverWrites.since('/deployments')).toEqual([
            { method: 'DELETE', path: `/apis/apps/v1/namespaces/${SHOP}/deployments/${from}` },
            { method: 'POST', path: `/apis/apps/v1/namespaces/${SHOP}/deployments` },
          ]);
      }
      const ready = await waitForCondition(cluster, target('jobs'), 'Ready', 'True');
      expect(ready.metadata.labels).toEqual({ track: 'canary' });
      // The other instance never moved.
      expect(image(await deployment(SHOP, 'stable-mail'))).toBe('registry.example.com/queue:1');
    });

    it('keeps CRDAlreadyRegistered for a registration behind an older one that selects everything', async () => {
      // creationTimestamp has whole seconds, and a tie goes to the smaller name ("late" < "stable").
      await sleep(1100);
      await cluster.apply(
        registrationObject('late', {
          crd,
          workload: { fromImage: { repo: 'registry.example.com/queue:0' } },
        }),
      );
      const late = await waitForCondition(cluster, registrationTarget('late'), 'ControllerReady', 'False');
      const message = `CRD "${crd}" is already registered by CRDRegistration "stable"`;
      expect(conditionsOf(late)).toEqual([
        { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
        { type: 'ControllerReady', status: 'False', reason: 'CRDAlreadyRegistered', message },
        { type: 'Ready', status: 'False', reason: 'CRDAlreadyRegistered', message },
        { type: 'Stalled', status: 'True', reason: 'CRDAlreadyRegistered', message },
      ]);
      expect(instancesOf(late)).toBeUndefined();
    });
  });

  describe(`namespaceSelector (${on})`, () => {
    const api = `${ZONES.group}/v1`;

    it('serves the instances of the Namespaces it selects, and judges them again when a Namespace is relabelled', async () => {
      await cluster.apply({ ...namespaceObject(PROD), metadata: { name: PROD, labels: { env: 'prod' } } });
      await cluster.apply(namespaceObject(DEV));
      await registerCrd(cluster, ZONES);
      await cluster.apply(
        registrationObject('prod-zones', {
          crd: `${ZONES.plural}.${ZONES.group}`,
          workload: { fromImage: { repo: 'registry.example.com/zone:1' } },
          namespaceSelector: { matchLabels: { env: 'prod' } },
        }),
      );
      await waitForCondition(cluster, registrationTarget('prod-zones'), 'Ready', 'True');
      await cluster.apply(instance(api, 'Zone', PROD, 'a'));
      await cluster.apply(instance(api, 'Zone', DEV, 'b'));
      await cluster.waitFor('prod child', () => deployment(PROD, 'prod-zones-a'));
      await sleep(backend.settleMs);
      expect(await deployment(DEV, 'prod-zones-b')).toBeUndefined();
      expect((await cluster.get(api, 'Zone', DEV, 'b'))?.status).toBeUndefined();

      await mergePatch(
        cluster,
        { apiVersion: 'v1', kind: 'Namespace', name: DEV },
        { metadata: { labels: { env: 'prod' } } },
      );
      await cluster.waitFor('dev child once dev is selected', () => deployment(DEV, 'prod-zones-b'));
      await cluster.waitFor('counts', async () => (await counts('prod-zones'))?.served === 2);
      expect(await counts('prod-zones')).toEqual({ served: 2, servedByOthers: 0 });
    });
  });

  describe(`an instance that leaves every selection (${on})`, () => {
    const api = `${VAULTS.group}/v1`;
    const target = { apiVersion: api, kind: 'Vault', namespace: SHOP, name: 'kept' };

    it('keeps its children and finalizer until it is deleted, then the registration that held it releases it', async () => {
      await registerCrd(cluster, VAULTS);
      await cluster.apply(
        registrationObject('gold', {
          crd: `${VAULTS.plural}.${VAULTS.group}`,
          workload: { fromImage: { repo: 'registry.example.com/vault:1' } },
          selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] },
          hook: { version: 'v1', address: { uri: hook.url }, capabilities: ['finalize'] },
        }),
      );
      await waitForCondition(cluster, registrationTarget('gold'), 'Ready', 'True');
      await cluster.apply(instance(api, 'Vault', SHOP, 'kept', { tier: 'gold' }));
      const ready = await waitForCondition(cluster, target, 'Ready', 'True');
      expect(ready.metadata.finalizers).toEqual([FINALIZER]);

      await cluster.apply(instance(api, 'Vault', SHOP, 'still', { tier: 'gold' }));
      await waitForCondition(cluster, { ...target, name: 'still' }, 'Ready', 'True');

      await mergePatch(cluster, target, { metadata: { labels: { tier: 'silver' } } });
      await sleep(backend.settleMs);
      // A new image reaches the instance still selected; the one that left is reconciled by nobody.
      await mergePatch(cluster, registrationTarget('gold'), {
        spec: { workload: { fromImage: { repo: 'registry.example.com/vault:2' } } },
      });
      await cluster.waitFor(
        'the new image on the selected instance',
        async () => image(await deployment(SHOP, 'gold-still')) === 'registry.example.com/vault:2',
      );
      await sleep(backend.settleMs);
      const left = await cluster.get(api, 'Vault', SHOP, 'kept');
      expect(left?.metadata.finalizers).toEqual([FINALIZER]);
      expect(image(await deployment(SHOP, 'gold-kept'))).toBe('registry.example.com/vault:1');
      expect(await counts('gold')).toEqual({ served: 1, servedByOthers: 0 });

      await cluster.remove({ apiVersion: api, kind: 'Vault', metadata: { name: 'kept', namespace: SHOP } });
      await cluster.waitFor(
        'released and gone',
        async () => (await cluster.get(api, 'Vault', SHOP, 'kept')) === undefined,
      );
      expect(hook.callsFor('finalize', 'kept')).toHaveLength(1);
    });
  });

  describe(`validation (${on})`, () => {
    it('reports an invalid selector as kube-apiserver would, and runs no controller', async () => {
      await cluster.apply(
        registrationObject('bad-selector', {
          crd: `${CANARY.plural}.${CANARY.group}`,
          workload: { fromImage: { repo: 'registry.example.com/queue:1' } },
          selector: { matchExpressions: [{ key: 'track', operator: 'In', values: [] }] },
        }),
      );
      const bad = await waitForCondition(cluster, registrationTarget('bad-selector'), 'Ready', 'False');
      const message =
        'spec.selector.matchExpressions[0].values: must be specified when operator is "In" or "NotIn"';
      expect(conditionsOf(bad)).toEqual([
        { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
        { type: 'ControllerReady', status: 'False', reason: 'InvalidSelector', message },
        { type: 'Ready', status: 'False', reason: 'InvalidSelector', message },
        { type: 'Stalled', status: 'True', reason: 'InvalidSelector', message },
      ]);
    });
  });
}
