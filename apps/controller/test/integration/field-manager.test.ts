/**
 * Who the controller's writes are from (docs/spec/children-and-status.md §8.11): every POST, PUT
 * and PATCH it sends names the field manager `scoby-controller`, and every request carries the
 * User-Agent `scoby-controller/<version>`; fields an earlier version wrote as `unknown` are handed
 * over to Scoby's entries.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf } from '../support/scoby.ts';
import { hookedRegistration, registrationReady } from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';

const API = 'owners.example.com/v1';
const CONTROLLER = 'scoby-sa';
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

let cluster: TestCluster;
let hook: ScriptedHook;

beforeAll(async () => {
  cluster = await startTestCluster({ user: CONTROLLER });
  hook = await startScriptedHook(NO_CHANGE);
  await cluster.apply(crdFor({ group: 'owners.example.com', kind: 'Pump', plural: 'pumps' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'plant' } });
  await cluster.apply(
    hookedRegistration('pump', 'pumps.owners.example.com', {
      hook: { address: { uri: `${hook.url}v1` }, capabilities: ['pre-reconcile', 'finalize'] },
    }),
  );
  await registrationReady(cluster, 'pump');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

const isReady = (object: KubeObject | undefined) => conditionOf(object, 'Ready')?.status === 'True';

async function readyPump(name: string): Promise<KubeObject> {
  await cluster.apply({
    apiVersion: API,
    kind: 'Pump',
    metadata: { name, namespace: 'plant' },
    spec: { rate: 3 },
  });
  return cluster.waitFor(`Pump ${name} Ready`, async () => {
    const pump = await cluster.get(API, 'Pump', 'plant', name);
    return isReady(pump) ? pump : undefined;
  });
}

describe('the field manager and User-Agent of the controller', () => {
  it('names scoby-controller on every write, status and finalizers included, and its version on every request', async () => {
    await readyPump('main');
    const sent = cluster.server.requestLog.entries().filter((entry) => entry.user === CONTROLLER);
    const writes = sent.filter((entry) => ['POST', 'PUT', 'PATCH'].includes(entry.method));
    const kinds = (path: string) => writes.some((entry) => entry.path.endsWith(path));
    // The writes this test is about are among them.
    expect(kinds('/crdregistrations/pump/status')).toBe(true);
    expect(kinds('/crdregistrations/pump')).toBe(true);
    expect(kinds('/namespaces/plant/pumps/main/status')).toBe(true);
    expect(kinds('/namespaces/plant/pumps/main')).toBe(true);
    expect(writes.filter((entry) => entry.query.fieldManager !== 'scoby-controller')).toEqual([]);
    expect(new Set(sent.map((entry) => entry.userAgent))).toEqual(new Set([`scoby-controller/${VERSION}`]));
  });

  it("hands fields an earlier version wrote as unknown to scoby-controller's entries", async () => {
    const pump = await readyPump('legacy');
    // managedFields as kube-apiserver recorded the earlier version's writes (no fieldManager, no User-Agent).
    const unknownMain = {
      manager: 'unknown',
      operation: 'Update',
      apiVersion: API,
      time: '2025-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:finalizers': { '.': {}, [`v:"${FINALIZER}"`]: {}, 'v:"example.com/keep"': {} } },
        'f:spec': { '.': {}, 'f:rate': {} },
      },
    };
    const unknownStatus = {
      manager: 'unknown',
      operation: 'Update',
      apiVersion: API,
      time: '2025-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { '.': {}, 'f:conditions': {}, 'f:observedGeneration': {} } },
      subresource: 'status',
    };
    const pumps = (await cluster.client.resourceFor(API, 'Pump'))!;
    await cluster.client.patch(
      pumps,
      'plant',
      'legacy',
      [{ op: 'add', path: '/metadata/managedFields', value: [unknownMain, unknownStatus] }],
      { contentType: JSON_PATCH },
    );
    expect(pump.metadata.finalizers).toEqual([FINALIZER]);

    const taken = await cluster.waitFor('unknown no longer holding Scoby fields', async () => {
      const current = await cluster.get(API, 'Pump', 'plant', 'legacy');
      const entries = (current?.metadata.managedFields ?? []) as { manager: string }[];
      return entries.some((entry) => entry.manager === 'scoby-controller') ? current : undefined;
    });
    expect(taken.metadata.managedFields).toEqual([
      {
        ...unknownMain,
        fieldsV1: {
          'f:metadata': { 'f:finalizers': { '.': {}, 'v:"example.com/keep"': {} } },
          'f:spec': { '.': {}, 'f:rate': {} },
        },
      },
      { ...unknownStatus, manager: 'scoby-controller' },
      {
        manager: 'scoby-controller',
        operation: 'Update',
        apiVersion: API,
        time: '2025-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:finalizers': { '.': {}, [`v:"${FINALIZER}"`]: {} } } },
      },
    ]);
  });
});
