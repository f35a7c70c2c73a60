/**
 * What a registration's controller remembers about one instance (parking after a permanent hook
 * error, a hook's Retry-After, docs/spec/hooks-v1.md §6.3) belongs to that registration: two CRDs may
 * each have an instance `shop/<name>`, and one of them going away must not change what the other's
 * controller does. The hook's request log shows whether the parked or waiting instance was finalized
 * again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf, reconcileCount, sleep } from '../support/scoby.ts';
import {
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
} from '../support/hooks-fixtures.ts';
import {
  errorReply,
  startScriptedHook,
  type HookScript,
  type ScriptedHook,
} from '../support/hooks-server.ts';

const MAILER = 'mail.example.com/v1';
const PRINTER = 'print.example.com/v1';

let cluster: TestCluster;
let hook: ScriptedHook;
const finalizeAnswers = new Map<string, HookScript>();

beforeAll(async () => {
  cluster = await startTestCluster();
  hook = await startScriptedHook((request) =>
    request.body.phase === 'finalize'
      ? (finalizeAnswers.get(request.body.object.metadata.name ?? '') ?? (() => ({ status: 204 })))(request)
      : { status: 204 },
  );
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  await cluster.apply(crdFor({ group: 'mail.example.com', kind: 'Mailer', plural: 'mailers' }));
  await cluster.apply(crdFor({ group: 'print.example.com', kind: 'Printer', plural: 'printers' }));
  await cluster.apply(
    hookedRegistration('mailer', 'mailers.mail.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile', 'finalize'] },
    }),
  );
  await cluster.apply(hookedRegistration('printer', 'printers.print.example.com'));
  await registrationReady(cluster, 'mailer');
  await registrationReady(cluster, 'printer');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

const ready = (object: KubeObject) => conditionOf(object, 'Ready')?.status === 'True';

/** A Mailer and a Printer both named `shop/<name>`, each Ready. */
async function twins(name: string): Promise<void> {
  for (const apiVersion of [MAILER, PRINTER]) {
    const kind = apiVersion === MAILER ? 'Mailer' : 'Printer';
    await cluster.apply({ apiVersion, kind, metadata: { name, namespace: 'shop' }, spec: {} });
    await instanceWhere(cluster, apiVersion, kind, 'shop', name, 'Ready=True', ready);
  }
}

/**
 * Deletes the Printer `shop/<name>` and waits until it is gone, then changes the Mailer's Deployment
 * (a change by someone else, which makes the Mailer's controller reconcile its owner) and waits
 * until that reconcile has run.
 */
async function printerGoesAwayThenMailerReconciles(name: string): Promise<void> {
  await cluster.remove({ apiVersion: PRINTER, kind: 'Printer', metadata: { name, namespace: 'shop' } });
  await cluster.waitFor(
    `Printer shop/${name} gone`,
    async () => (await cluster.get(PRINTER, 'Printer', 'shop', name)) === undefined,
  );
  // The Printer controller's reconcile of the vanished key runs right after the watch event.
  await sleep(200);
  const before = await reconcileCount(cluster.controller.metrics, 'mailer');
  await mergePatch(
    cluster,
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: `mailer-${name}` },
    { metadata: { labels: { touched: 'yes' } } },
  );
  await cluster.waitFor(
    'the Mailer reconciled after its Deployment changed',
    async () => (await reconcileCount(cluster.controller.metrics, 'mailer')) > before,
  );
  await sleep(200);
}

async function deleteMailerUntilHookFailed(name: string, message: string): Promise<void> {
  await cluster.remove({ apiVersion: MAILER, kind: 'Mailer', metadata: { name, namespace: 'shop' } });
  await instanceWhere(cluster, MAILER, 'Mailer', 'shop', name, 'Ready=False/HookFailed', (object) => {
    const condition = conditionOf(object, 'Ready');
    return condition?.reason === 'HookFailed' && condition.message === message;
  });
}

describe('a parked instance (finalize answered a permanent error)', () => {
  it('stays parked when another registration’s instance of the same namespace/name goes away', async () => {
    finalizeAnswers.set('x', () => errorReply(403, { message: 'legal hold', permanent: true }));
    await twins('x');
    await deleteMailerUntilHookFailed('x', 'finalize hook: HTTP 403: legal hold');
    expect(hook.callsFor('finalize', 'x')).toHaveLength(1);

    await printerGoesAwayThenMailerReconciles('x');

    expect(hook.callsFor('finalize', 'x').map((call) => call.body.object.kind)).toEqual(['Mailer']);
    const mailer = await cluster.get(MAILER, 'Mailer', 'shop', 'x');
    expect(mailer?.metadata.deletionTimestamp).toEqual(expect.any(String));
  });
});

describe('an instance waiting out a hook’s Retry-After', () => {
  it('keeps waiting when another registration’s instance of the same namespace/name goes away', async () => {
    finalizeAnswers.set('y', () => errorReply(503, { message: 'busy' }, { 'Retry-After': '60' }));
    await twins('y');
    await deleteMailerUntilHookFailed('y', 'finalize hook: HTTP 503: busy');
    expect(hook.callsFor('finalize', 'y')).toHaveLength(1);

    await printerGoesAwayThenMailerReconciles('y');

    expect(hook.callsFor('finalize', 'y').map((call) => call.body.object.kind)).toEqual(['Mailer']);
  });
});
