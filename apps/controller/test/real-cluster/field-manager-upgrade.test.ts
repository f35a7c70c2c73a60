/**
 * An upgrade on kube-apiserver: every write of the controller is recorded under its field manager
 * `scoby-controller`, and what an earlier version wrote without one (recorded as `unknown`: the
 * status of registrations and instances, Scoby's finalizer) is taken over once the new controller
 * runs: no 409, and managedFields no longer name `unknown` for those fields
 * (docs/spec/children-and-status.md §8.11). Real control plane only: the in-memory server records
 * managedFields entries for creates with a fieldManager alone, not the earlier version's writes
 * (test/support/field-manager-scenario.ts, on both, writes such entries by hand).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import type { RunningProcess } from '../../src/index.ts';
import { crdFor } from '../support/cluster.ts';
import { conditionOf, namespaceObject, registrationObject } from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const GROUP = 'legacy.real.example.com';
const API = `${GROUP}/v1`;
const REGISTRATION_API = 'scoby.triggermesh.io/v1alpha1';
const admin = realClusterAdmin();
let controller: RunningProcess | undefined;

interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1?: Record<string, unknown>;
}

const entriesOf = (object: KubeObject | undefined) =>
  (object?.metadata.managedFields ?? []) as ManagedFieldsEntry[];

/** Who holds what: `manager operation [subresource]` → the top-level fields it owns. */
function ownership(object: KubeObject | undefined): Record<string, string[]> {
  return Object.fromEntries(
    entriesOf(object).map((entry) => [
      `${entry.manager} ${entry.operation}${entry.subresource ? ` ${entry.subresource}` : ''}`,
      Object.keys(entry.fieldsV1 ?? {}).sort(),
    ]),
  );
}

/** Holds Scoby's finalizer in its managedFields entry. */
const holdsFinalizer = (entry: ManagedFieldsEntry) =>
  JSON.stringify(entry.fieldsV1 ?? {}).includes(JSON.stringify(`v:${JSON.stringify(FINALIZER)}`));

const OLD_CONDITIONS = [
  {
    type: 'Ready',
    status: 'True',
    reason: 'CONDITIONSOK',
    message: '',
    lastTransitionTime: '2025-01-01T00:00:00Z',
  },
];

beforeAll(async () => {
  await admin.apply(registeredKindRole(GROUP, 'widgets'));
  await admin.apply(namespaceObject('legacy'));
  await admin.apply(crdFor({ group: GROUP, kind: 'Widget', plural: 'widgets' }));
  await admin.waitFor(
    'the CRD served',
    async () => (await admin.client.resourceFor(API, 'Widget')) !== undefined,
  );
  const registration = await admin.apply(
    registrationObject('legacy', {
      crd: `widgets.${GROUP}`,
      workload: { fromImage: { repo: 'registry.example.com/legacy:1' } },
    }),
  );
  const instance = await admin.apply({
    apiVersion: API,
    kind: 'Widget',
    metadata: { name: 'old', namespace: 'legacy' },
    spec: { size: 'small' },
  });
  // What the earlier version wrote: merge patches with neither fieldManager nor User-Agent.
  const registrations = (await admin.client.resourceFor(REGISTRATION_API, 'CRDRegistration'))!;
  const widgets = (await admin.client.resourceFor(API, 'Widget'))!;
  await admin.client.patch(registrations, undefined, 'legacy', { metadata: { finalizers: [FINALIZER] } });
  await admin.client.patch(
    registrations,
    undefined,
    'legacy',
    { status: { observedGeneration: registration.metadata.generation, conditions: OLD_CONDITIONS } },
    { subresource: 'status' },
  );
  await admin.client.patch(
    widgets,
    'legacy',
    'old',
    { status: { observedGeneration: instance.metadata.generation, conditions: OLD_CONDITIONS } },
    { subresource: 'status' },
  );
});
afterAll(async () => {
  await controller?.stop();
  await admin.stop();
});

describe('on the real control plane, fields an earlier version wrote as unknown', () => {
  it('start out as unknown, as the old writes left them', async () => {
    const registration = await admin.get(REGISTRATION_API, 'CRDRegistration', undefined, 'legacy');
    const instance = await admin.get(API, 'Widget', 'legacy', 'old');
    expect(ownership(registration)['unknown Update status']).toEqual(['f:status']);
    expect(
      entriesOf(registration).some((entry) => entry.manager === 'unknown' && holdsFinalizer(entry)),
    ).toBe(true);
    expect(ownership(instance)['unknown Update status']).toEqual(['f:status']);
  });

  it('are taken over by scoby-controller without a conflict once the new controller runs', async () => {
    controller = startRealController();
    const instance = await admin.waitFor('the instance status written by the new controller', async () => {
      const current = await admin.get(API, 'Widget', 'legacy', 'old');
      const settled =
        conditionOf(current, 'DeploymentReady') !== undefined &&
        !entriesOf(current).some((entry) => entry.manager === 'unknown' && entry.subresource === 'status');
      return settled ? current : undefined;
    });
    const registration = await admin.waitFor('the registration status taken over', async () => {
      const current = await admin.get(REGISTRATION_API, 'CRDRegistration', undefined, 'legacy');
      const taken = !entriesOf(current).some(
        (entry) => entry.manager === 'unknown' && (entry.subresource === 'status' || holdsFinalizer(entry)),
      );
      return conditionOf(current, 'Ready')?.status === 'True' && taken ? current : undefined;
    });

    // unknown keeps what it created (the spec); Scoby holds the status and its finalizer.
    expect(ownership(instance)).toEqual({
      'unknown Update': ['f:spec'],
      'scoby-controller Update status': ['f:status'],
    });
    expect(ownership(registration)).toEqual({
      'unknown Update': ['f:spec'],
      'scoby-controller Update': ['f:metadata'],
      'scoby-controller Update status': ['f:status'],
    });
    expect(
      entriesOf(registration).find((entry) => entry.manager === 'scoby-controller' && !entry.subresource),
    ).toSatisfy(holdsFinalizer);
    const metrics = await controller.metrics.registry.getSingleMetricAsString('rest_client_requests_total');
    // No write to an existing object conflicted (a child's POST may find it just created, which Scoby handles).
    expect(metrics).not.toMatch(/code="409",method="(PATCH|PUT)"/);
    const warnings = (await admin.events('legacy', 'old')).filter((event) => event.type === 'Warning');
    expect(warnings).toEqual([]);
  });
});
