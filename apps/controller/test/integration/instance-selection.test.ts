/**
 * Instance selection (docs/spec/registration.md §3.6, §6.8) on the in-memory API server: a canary
 * registration beside a stable one, instances moving between them with their children, the counts and
 * Events of the registration that does not serve, namespaceSelector, and an instance that leaves every
 * selection keeping its children and finalizer until it is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
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
  writesIn,
} from '../support/scoby.ts';
import { mergePatch } from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';

/** status.instances of a registration (registration.md §5.1). */
const instancesOf = (registration: KubeObject | undefined) =>
  (registration?.status as { instances?: { served: number; servedByOthers: number } } | undefined)?.instances;

let cluster: TestCluster;
let hook: ScriptedHook;

beforeAll(async () => {
  cluster = await startTestCluster();
  hook = await startScriptedHook(NO_CHANGE);
  await cluster.apply(namespaceObject('shop'));
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

const image = (deployment: KubeObject | undefined) => adapterOf(deployment).image;
const deployment = (namespace: string, name: string) => cluster.get('apps/v1', 'Deployment', namespace, name);
const gone = (namespace: string, name: string) => async () =>
  (await deployment(namespace, name)) === undefined;

function instance(
  api: string,
  kind: string,
  namespace: string,
  name: string,
  labels?: Record<string, string>,
) {
  return {
    apiVersion: api,
    kind,
    metadata: { name, namespace, ...(labels ? { labels } : {}) },
    spec: {},
  };
}

async function registrationEvents(name: string) {
  return eventViews(await cluster.events('default', name));
}

// First: the controller remembers a grant for a while (AccessReviewer), and later tests are granted.
describe('a namespaceSelector without Namespace access', () => {
  it('is MissingPermissions naming the Namespace verbs; a registration without one does not ask', async () => {
    const lift = cluster.server.authorization.deny({ verb: 'list', resource: 'namespaces' });
    try {
      await cluster.apply(crdFor({ group: 'guarded.example.com', kind: 'Gate', plural: 'gates' }));
      await cluster.apply(
        registrationObject('guarded', {
          crd: 'gates.guarded.example.com',
          workload: { fromImage: { repo: 'registry.example.com/gate:1' } },
          namespaceSelector: { matchLabels: { env: 'prod' } },
        }),
      );
      const refused = await waitForCondition(
        cluster,
        registrationTarget('guarded'),
        'Ready',
        'False',
        'MissingPermissions',
      );
      expect(conditionsOf(refused)[1]).toEqual({
        type: 'ControllerReady',
        status: 'False',
        reason: 'MissingPermissions',
        message:
          'the controller may not list namespaces (all namespaces); add to the ClusterRole scoby-controller ' +
          '(deploy/10-rbac.yaml) the rules {apiGroups: [""], resources: [namespaces], verbs: [get, list, watch]} ' +
          '(see docs/migration.md)',
      });
      await cluster.apply(crdFor({ group: 'open.example.com', kind: 'Gate', plural: 'gates' }));
      await cluster.apply(
        registrationObject('open', {
          crd: 'gates.open.example.com',
          workload: { fromImage: { repo: 'registry.example.com/gate:1' } },
        }),
      );
      await waitForCondition(cluster, registrationTarget('open'), 'Ready', 'True');
    } finally {
      lift();
    }
  });
});

describe('a canary registration beside a stable one', () => {
  const api = 'canary.example.com/v1';
  const crd = 'queues.canary.example.com';
  const target = (name: string) => ({ apiVersion: api, kind: 'Queue', namespace: 'shop', name });

  beforeAll(async () => {
    await cluster.apply(crdFor({ group: 'canary.example.com', kind: 'Queue', plural: 'queues' }));
    await cluster.apply(
      registrationObject('canary', {
        crd,
        workload: { fromImage: { repo: 'registry.example.com/queue:2-rc' } },
        selector: { matchLabels: { track: 'canary' } },
      }),
    );
    await waitForCondition(cluster, registrationTarget('canary'), 'Ready', 'True');
    await cluster.apply(
      registrationObject('stable', {
        crd,
        workload: { fromImage: { repo: 'registry.example.com/queue:1' } },
      }),
    );
    await waitForCondition(cluster, registrationTarget('stable'), 'Ready', 'True');
  });

  it('serves labelled instances with the canary image and the others with the stable one', async () => {
    await cluster.apply(instance(api, 'Queue', 'shop', 'jobs', { track: 'canary' }));
    await cluster.apply(instance(api, 'Queue', 'shop', 'mail'));
    expect(image(await cluster.waitFor('canary child', () => deployment('shop', 'canary-jobs')))).toBe(
      'registry.example.com/queue:2-rc',
    );
    expect(image(await cluster.waitFor('stable child', () => deployment('shop', 'stable-mail')))).toBe(
      'registry.example.com/queue:1',
    );
    await waitForCondition(cluster, target('jobs'), 'Ready', 'True');
    await waitForCondition(cluster, target('mail'), 'Ready', 'True');
    expect(await deployment('shop', 'stable-jobs')).toBeUndefined();
    expect(await deployment('shop', 'canary-mail')).toBeUndefined();
  });

  it('counts what each serves and what an older one serves instead, and says which instance', async () => {
    const counts = async (name: string) =>
      instancesOf(await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, name));
    await cluster.waitFor('stable counts', async () => {
      const found = await counts('stable');
      return JSON.stringify(found) === JSON.stringify({ served: 1, servedByOthers: 1 });
    });
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
        message:
          'instance shop/jobs is served by CRDRegistration "canary", which is older and selects it too',
      },
    ]);
    expect(
      (await registrationEvents('canary')).filter((event) => event.reason === 'InstanceServedByOther'),
    ).toEqual([]);
  });

  it('moves an instance back and forth with its children: nothing lost, one writer at a time', async () => {
    cluster.server.requestLog.clear();
    await mergePatch(cluster, target('jobs'), { metadata: { labels: { track: null } } });
    const stable = await cluster.waitFor('stable takes jobs', () => deployment('shop', 'stable-jobs'));
    expect(image(stable)).toBe('registry.example.com/queue:1');
    await cluster.waitFor('canary child pruned', gone('shop', 'canary-jobs'));
    await sleep(300);
    // The registration that lost it writes nothing more: one create, one prune, no fight.
    expect(writesIn(cluster.server.requestLog.entries(), '/deployments')).toEqual([
      { method: 'DELETE', path: '/apis/apps/v1/namespaces/shop/deployments/canary-jobs' },
      { method: 'POST', path: '/apis/apps/v1/namespaces/shop/deployments' },
    ]);

    cluster.server.requestLog.clear();
    await mergePatch(cluster, target('jobs'), { metadata: { labels: { track: 'canary' } } });
    const canary = await cluster.waitFor('canary takes jobs back', () => deployment('shop', 'canary-jobs'));
    expect(image(canary)).toBe('registry.example.com/queue:2-rc');
    await cluster.waitFor('stable child pruned', gone('shop', 'stable-jobs'));
    await sleep(300);
    expect(writesIn(cluster.server.requestLog.entries(), '/deployments')).toEqual([
      { method: 'DELETE', path: '/apis/apps/v1/namespaces/shop/deployments/stable-jobs' },
      { method: 'POST', path: '/apis/apps/v1/namespaces/shop/deployments' },
    ]);
    const ready = await waitForCondition(cluster, target('jobs'), 'Ready', 'True');
    expect(ready.metadata.labels).toEqual({ track: 'canary' });
    // The other instance never moved.
    expect(image(await deployment('shop', 'stable-mail'))).toBe('registry.example.com/queue:1');
  });

  it('keeps CRDAlreadyRegistered for a registration behind an older one that selects everything', async () => {
    // creationTimestamp has whole seconds, and a tie goes to the smaller name ("late" < "stable").
    await sleep(1100);
    await cluster.apply(
      registrationObject('late', { crd, workload: { fromImage: { repo: 'registry.example.com/queue:0' } } }),
    );
    const late = await waitForCondition(cluster, registrationTarget('late'), 'ControllerReady', 'False');
    const message = `CRD "${crd}" is already registered by CRDRegistration "stable"`;
    expect(conditionsOf(late)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'False', reason: 'CRDAlreadyRegistered', message },
      { type: 'Ready', status: 'False', reason: 'CRDAlreadyRegistered', message },
    ]);
    expect(instancesOf(late)).toBeUndefined();
  });
});

describe('namespaceSelector', () => {
  const api = 'zones.example.com/v1';

  it('serves the instances of the Namespaces it selects, and judges them again when a Namespace is relabelled', async () => {
    await cluster.apply({ ...namespaceObject('prod'), metadata: { name: 'prod', labels: { env: 'prod' } } });
    await cluster.apply(namespaceObject('dev'));
    await cluster.apply(crdFor({ group: 'zones.example.com', kind: 'Zone', plural: 'zones' }));
    await cluster.apply(
      registrationObject('prod-zones', {
        crd: 'zones.zones.example.com',
        workload: { fromImage: { repo: 'registry.example.com/zone:1' } },
        namespaceSelector: { matchLabels: { env: 'prod' } },
      }),
    );
    await waitForCondition(cluster, registrationTarget('prod-zones'), 'Ready', 'True');
    await cluster.apply(instance(api, 'Zone', 'prod', 'a'));
    await cluster.apply(instance(api, 'Zone', 'dev', 'b'));
    await cluster.waitFor('prod child', () => deployment('prod', 'prod-zones-a'));
    await sleep(300);
    expect(await deployment('dev', 'prod-zones-b')).toBeUndefined();
    const dev = await cluster.get(api, 'Zone', 'dev', 'b');
    expect(dev?.status).toBeUndefined();

    await mergePatch(
      cluster,
      { apiVersion: 'v1', kind: 'Namespace', name: 'dev' },
      {
        metadata: { labels: { env: 'prod' } },
      },
    );
    await cluster.waitFor('dev child once dev is selected', () => deployment('dev', 'prod-zones-b'));
    const registration = await cluster.waitFor('counts', async () => {
      const found = await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, 'prod-zones');
      return instancesOf(found)?.served === 2 ? found : undefined;
    });
    expect(instancesOf(registration)).toEqual({ served: 2, servedByOthers: 0 });
  });
});

describe('an instance that leaves every selection', () => {
  const api = 'leave.example.com/v1';
  const target = { apiVersion: api, kind: 'Vault', namespace: 'shop', name: 'kept' };

  it('keeps its children and finalizer until it is deleted, then the registration that held it releases it', async () => {
    await cluster.apply(crdFor({ group: 'leave.example.com', kind: 'Vault', plural: 'vaults' }));
    await cluster.apply(
      registrationObject('gold', {
        crd: 'vaults.leave.example.com',
        workload: { fromImage: { repo: 'registry.example.com/vault:1' } },
        selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] },
        hook: { version: 'v1', address: { uri: hook.url }, capabilities: ['finalize'] },
      }),
    );
    await waitForCondition(cluster, registrationTarget('gold'), 'Ready', 'True');
    await cluster.apply(instance(api, 'Vault', 'shop', 'kept', { tier: 'gold' }));
    const ready = await waitForCondition(cluster, target, 'Ready', 'True');
    expect(ready.metadata.finalizers).toEqual([FINALIZER]);

    await cluster.apply(instance(api, 'Vault', 'shop', 'still', { tier: 'gold' }));
    await waitForCondition(cluster, { ...target, name: 'still' }, 'Ready', 'True');

    await mergePatch(cluster, target, { metadata: { labels: { tier: 'silver' } } });
    await sleep(300);
    // A new image reaches the instance still selected; the one that left is reconciled by nobody.
    await mergePatch(cluster, registrationTarget('gold'), {
      spec: { workload: { fromImage: { repo: 'registry.example.com/vault:2' } } },
    });
    await cluster.waitFor(
      'the new image on the selected instance',
      async () => image(await deployment('shop', 'gold-still')) === 'registry.example.com/vault:2',
    );
    await sleep(300);
    const left = await cluster.get(api, 'Vault', 'shop', 'kept');
    expect(left?.metadata.finalizers).toEqual([FINALIZER]);
    expect(image(await deployment('shop', 'gold-kept'))).toBe('registry.example.com/vault:1');
    const counts = await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, 'gold');
    expect(instancesOf(counts)).toEqual({ served: 1, servedByOthers: 0 });

    await cluster.remove({ apiVersion: api, kind: 'Vault', metadata: { name: 'kept', namespace: 'shop' } });
    await cluster.waitFor(
      'released and gone',
      async () => (await cluster.get(api, 'Vault', 'shop', 'kept')) === undefined,
    );
    expect(hook.callsFor('finalize', 'kept')).toHaveLength(1);
  });
});

describe('validation', () => {
  it('reports an invalid selector as kube-apiserver would, and runs no controller', async () => {
    await cluster.apply(
      registrationObject('bad-selector', {
        crd: 'queues.canary.example.com',
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
    ]);
  });
});
