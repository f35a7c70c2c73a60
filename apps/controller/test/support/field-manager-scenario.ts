/**
 * Who the controller's writes are from (docs/spec/children-and-status.md §8.11), run alike on the
 * in-memory server and on the real control plane: the objects it writes name the field manager
 * `scoby-controller`, and fields an earlier version wrote as `unknown` (here its managedFields entries
 * written by hand; test/real-cluster/field-manager-upgrade.test.ts has the earlier version's own
 * writes, which only kube-apiserver records as `unknown`) are handed over to Scoby's entries.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { ScenarioBackend } from './backend.ts';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { conditionOf, namespaceObject } from './scoby.ts';
import { hookedRegistration, registrationReady } from './hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type ScriptedHook } from './hooks-server.ts';

export const GROUP = 'owners.example.com';
export const PLURAL = 'pumps';
const API = `${GROUP}/v1`;
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What the in-memory server's request log says of one request of the controller. */
export interface SentRequest {
  method: string;
  path: string;
  fieldManager: string | undefined;
  userAgent: string | undefined;
}

export interface FieldManagerBackend extends ScenarioBackend {
  /**
   * In memory only: every request the controller sent, from the server's log. (kube-apiserver's
   * audit log is not kept for Scoby's ServiceAccount; there, managedFields say it.)
   */
  controllerRequests?: () => SentRequest[];
}

/** Declares the scenario's tests on the backend `start` gives (called once, before them), named `on`. */
export function fieldManagerScenario(on: string, start: () => Promise<FieldManagerBackend>): void {
  let backend: FieldManagerBackend;
  let cluster: ClusterVerbs;
  let hook: ScriptedHook;

  beforeAll(async () => {
    backend = await start();
    cluster = backend.cluster;
    hook = await startScriptedHook(NO_CHANGE);
    await cluster.apply(crdFor({ group: GROUP, kind: 'Pump', plural: PLURAL }));
    await cluster.apply(namespaceObject('plant'));
    await cluster.waitFor(
      'the CRD served',
      async () => (await cluster.client.resourceFor(API, 'Pump')) !== undefined,
    );
    await cluster.apply(
      hookedRegistration('pump', `${PLURAL}.${GROUP}`, {
        hook: { address: { uri: `${hook.url}v1` }, capabilities: ['pre-reconcile', 'finalize'] },
      }),
    );
    await registrationReady(cluster, 'pump');
  });
  afterAll(async () => {
    await backend?.stop();
    await hook?.close();
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

  /** The managers of an object's managedFields entries, other than the admin's (`unknown`: the test writes without a name). */
  const managersOf = (object: KubeObject | undefined) =>
    [
      ...new Set(
        (object?.metadata.managedFields ?? []).map((entry) => (entry as { manager: string }).manager),
      ),
    ]
      .filter((manager) => manager !== 'unknown')
      .sort();

  const byManager = (entries: unknown[] | undefined) =>
    [...(entries ?? [])].sort((a, b) => {
      const key = (entry: unknown) => {
        const { manager, subresource } = entry as { manager: string; subresource?: string };
        return `${manager} ${subresource ?? ''}`;
      };
      return key(a).localeCompare(key(b));
    });

  describe(`the field manager and User-Agent of the controller (${on})`, () => {
    it('names scoby-controller on every write, status and finalizers included, and its version on every request', async () => {
      const main = await readyPump('main');
      // What the server recorded: the children it created are scoby-controller's; the instance and the
      // registration name nobody else (kube-apiserver records every write; the in-memory server, a create's).
      const registration = await cluster.get(
        'scoby.triggermesh.io/v1alpha1',
        'CRDRegistration',
        undefined,
        'pump',
      );
      const deployment = await cluster.get('apps/v1', 'Deployment', 'plant', 'pump-main');
      const service = await cluster.get('v1', 'Service', 'plant', 'pump-main');
      expect(managersOf(service)).toEqual(['scoby-controller']);
      // kube-controller-manager writes the Deployment's status on the real control plane.
      expect(managersOf(deployment).filter((manager) => manager !== 'kube-controller-manager')).toEqual([
        'scoby-controller',
      ]);
      for (const object of [main, registration])
        expect(managersOf(object).filter((manager) => manager !== 'scoby-controller')).toEqual([]);
      // In memory, the server's log of each request: the writes this test is about are among them,
      // each names the field manager, and every request the User-Agent.
      const sent = backend.controllerRequests?.();
      if (sent) {
        const writes = sent.filter((entry) => ['POST', 'PUT', 'PATCH'].includes(entry.method));
        const kinds = (path: string) => writes.some((entry) => entry.path.endsWith(path));
        expect(kinds('/crdregistrations/pump/status')).toBe(true);
        expect(kinds('/crdregistrations/pump')).toBe(true);
        expect(kinds('/namespaces/plant/pumps/main/status')).toBe(true);
        expect(kinds('/namespaces/plant/pumps/main')).toBe(true);
        expect(writes.filter((entry) => entry.fieldManager !== 'scoby-controller')).toEqual([]);
        expect(new Set(sent.map((entry) => entry.userAgent))).toEqual(
          new Set([`scoby-controller/${VERSION}`]),
        );
      }
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
        const entries = (current?.metadata.managedFields ?? []) as {
          manager: string;
          subresource?: string;
        }[];
        const unknownHolds = entries.some(
          (entry) =>
            entry.manager === 'unknown' &&
            (entry.subresource === 'status' || JSON.stringify(entry).includes(`v:\\"${FINALIZER}\\"`)),
        );
        return entries.some((entry) => entry.manager === 'scoby-controller') && !unknownHolds
          ? current
          : undefined;
      });
      // In the order of their manager and subresource: kube-apiserver sorts the entries, the in-memory
      // server keeps them as written.
      expect(byManager(taken.metadata.managedFields)).toEqual(
        byManager([
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
        ]),
      );
    });
  });
}
