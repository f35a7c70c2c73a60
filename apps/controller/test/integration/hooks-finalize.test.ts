/**
 * Finalization through the hook (docs/spec/hooks-v1.md §7, docs/spec/registration.md §6.6–§6.7): the finalizer comes
 * before the first pre-reconcile call, a refusing hook holds the deletion, and nothing stays stuck
 * once the hook agrees, loses the capability or the registration goes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf, conditionsOf, REGISTRATION_API, registrationTarget } from '../support/scoby.ts';
import {
  eventsOf,
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
  type HookSpec,
} from '../support/hooks-fixtures.ts';
import {
  errorReply,
  NO_CHANGE,
  startScriptedHook,
  type HookScript,
  type ScriptedHook,
} from '../support/hooks-server.ts';

const API = 'secrets.example.com/v1';
const CRD = 'vaults.secrets.example.com';
const RELEASED = { type: 'Normal', reason: 'FinalizerReleased', message: `removed finalizer ${FINALIZER}` };

let cluster: TestCluster;
let hook: ScriptedHook;
const finalizeBehaviour = new Map<string, HookScript>();

beforeAll(async () => {
  cluster = await startTestCluster();
  hook = await startScriptedHook((request) =>
    request.body.phase === 'finalize'
      ? (finalizeBehaviour.get(request.body.object.metadata.name ?? '') ?? NO_CHANGE)(request)
      : { status: 204 },
  );
  await cluster.apply(crdFor({ group: 'secrets.example.com', kind: 'Vault', plural: 'vaults' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bank' } });
  await cluster.apply(hookedRegistration('vault', CRD, { hook: hookSpec(['pre-reconcile', 'finalize']) }));
  await registrationReady(cluster, 'vault');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

function hookSpec(capabilities: string[]): HookSpec {
  return { address: { uri: hook.url }, capabilities };
}

async function setCapabilities(capabilities: string[]): Promise<void> {
  await mergePatch(cluster, registrationTarget('vault'), { spec: { hook: { capabilities } } });
}

const vault = (name: string, description: string, probe: (object: KubeObject) => boolean) =>
  instanceWhere(cluster, API, 'Vault', 'bank', name, description, probe);

/** Creates an instance and waits until its children are up (Ready=True). */
async function converged(name: string): Promise<KubeObject> {
  await cluster.apply({
    apiVersion: API,
    kind: 'Vault',
    metadata: { name, namespace: 'bank' },
    spec: { tier: 'gold' },
  });
  return vault(name, 'Ready=True', (object) => conditionOf(object, 'Ready')?.status === 'True');
}

async function deleteVault(name: string): Promise<void> {
  await cluster.remove({ apiVersion: API, kind: 'Vault', metadata: { name, namespace: 'bank' } });
}

const gone = (name: string) =>
  cluster.waitFor(
    `Vault bank/${name} gone`,
    async () => (await cluster.get(API, 'Vault', 'bank', name)) === undefined,
  );

const childrenGone = (name: string) =>
  cluster.waitFor(
    `children of ${name} garbage-collected`,
    async () =>
      (await cluster.get('apps/v1', 'Deployment', 'bank', `vault-${name}`)) === undefined &&
      (await cluster.get('v1', 'Service', 'bank', `vault-${name}`)) === undefined,
  );

const hookFailed = (message: string) => (object: KubeObject) => {
  const ready = conditionOf(object, 'Ready');
  return ready?.reason === 'HookFailed' && ready.message === message;
};

describe('adding the finalizer (§7 Adding)', () => {
  it('puts the finalizer on before the first pre-reconcile call', async () => {
    await converged('first-seen');
    const [firstCall] = hook.callsFor('pre-reconcile', 'first-seen');
    expect(firstCall?.body.object.metadata.finalizers).toEqual([FINALIZER]);
    const finalizerPatches = cluster.server.requestLog
      .entries()
      .filter(
        (entry) =>
          entry.method === 'PATCH' &&
          entry.code === 200 &&
          entry.path === '/apis/secrets.example.com/v1/namespaces/bank/vaults/first-seen',
      );
    expect(finalizerPatches.map((entry) => entry.body)).toEqual([
      { metadata: { finalizers: [FINALIZER], resourceVersion: expect.any(String) } },
    ]);
  });
});

describe('on deletion (§7 On deletion)', () => {
  it('holds the instance while finalize refuses, then lets it go and its children are collected', async () => {
    finalizeBehaviour.set('ledger', () => errorReply(409, { message: 'backup still running' }));
    await converged('ledger');
    await deleteVault('ledger');
    const message = 'finalize hook: HTTP 409: backup still running';
    const held = await vault('ledger', 'Ready=False/HookFailed', hookFailed(message));
    expect(held.metadata.finalizers).toEqual([FINALIZER]);
    expect(conditionsOf(held)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'Ready', status: 'False', reason: 'HookFailed', message },
      { type: 'Reconciling', status: 'True', reason: 'HookFailed', message },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
    ]);
    expect(
      (await eventsOf(cluster, 'bank', 'ledger')).filter((event) => event.reason === 'HookFailed'),
    ).toEqual([{ type: 'Warning', reason: 'HookFailed', message }]);
    const [finalizeCall] = hook.callsFor('finalize', 'ledger');
    expect(Object.keys(finalizeCall!.body).sort()).toEqual(['formFactor', 'object', 'phase']);
    expect(finalizeCall!.body.formFactor).toBe('deployment');
    expect(finalizeCall!.body.object.metadata).toMatchObject({
      name: 'ledger',
      deletionTimestamp: expect.any(String),
      finalizers: [FINALIZER],
    });

    finalizeBehaviour.delete('ledger');
    await gone('ledger');
    await childrenGone('ledger');
  });

  it('counts a continue: true answer as success', async () => {
    finalizeBehaviour.set('lenient', () =>
      errorReply(500, { message: 'audit log unavailable', continue: true }),
    );
    await converged('lenient');
    await deleteVault('lenient');
    await gone('lenient');
    expect(hook.callsFor('finalize', 'lenient')).toHaveLength(1);
    expect(
      (await eventsOf(cluster, 'bank', 'lenient')).filter((event) => event.reason === 'HookFailed'),
    ).toEqual([
      { type: 'Warning', reason: 'HookFailed', message: 'finalize hook: HTTP 500: audit log unavailable' },
    ]);
  });

  it('parks on a permanent refusal and tries again when a label changes (§7.1)', async () => {
    finalizeBehaviour.set('sealed', () => errorReply(403, { message: 'legal hold', permanent: true }));
    await converged('sealed');
    await deleteVault('sealed');
    await vault('sealed', 'Ready=False/HookFailed', hookFailed('finalize hook: HTTP 403: legal hold'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hook.callsFor('finalize', 'sealed')).toHaveLength(1);

    finalizeBehaviour.delete('sealed');
    await mergePatch(
      cluster,
      { apiVersion: API, kind: 'Vault', namespace: 'bank', name: 'sealed' },
      { metadata: { labels: { hold: 'lifted' } } },
    );
    await gone('sealed');
    expect(hook.callsFor('finalize', 'sealed')).toHaveLength(2);
  });
});

describe('deletion never stays blocked (§7.1)', () => {
  it('releases a held instance after one best-effort call when the capability is removed', async () => {
    finalizeBehaviour.set('stuck', () => errorReply(409, { message: 'never', permanent: true }));
    await converged('stuck');
    await deleteVault('stuck');
    await vault('stuck', 'Ready=False/HookFailed', hookFailed('finalize hook: HTTP 409: never'));
    expect(hook.callsFor('finalize', 'stuck')).toHaveLength(1);

    await setCapabilities(['pre-reconcile']);
    await gone('stuck');
    expect(hook.callsFor('finalize', 'stuck')).toHaveLength(2);
    expect(
      (await eventsOf(cluster, 'bank', 'stuck')).filter((event) => event.reason === 'FinalizerReleased'),
    ).toEqual([RELEASED]);
    // Instances that are not being deleted lose the finalizer too (docs/spec/children-and-status.md §1 step 4).
    await vault('first-seen', 'finalizer removed', (object) => object.metadata.finalizers === undefined);
  });

  it('releases held instances when the registration is deleted', async () => {
    await setCapabilities(['pre-reconcile', 'finalize']);
    finalizeBehaviour.set('orphan', () => errorReply(409, { message: 'never', permanent: true }));
    await converged('orphan');
    await vault('orphan', 'finalizer added', (object) =>
      (object.metadata.finalizers ?? []).includes(FINALIZER),
    );
    await deleteVault('orphan');
    await vault('orphan', 'Ready=False/HookFailed', hookFailed('finalize hook: HTTP 409: never'));

    await cluster.remove({
      apiVersion: REGISTRATION_API,
      kind: 'CRDRegistration',
      metadata: { name: 'vault' },
    });
    await gone('orphan');
    await cluster.waitFor(
      'registration gone',
      async () => (await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, 'vault')) === undefined,
    );
    expect(hook.callsFor('finalize', 'orphan')).toHaveLength(2);
    expect(
      (await eventsOf(cluster, 'bank', 'orphan')).filter((event) => event.reason === 'FinalizerReleased'),
    ).toEqual([RELEASED]);
    await childrenGone('orphan');
  });
});
