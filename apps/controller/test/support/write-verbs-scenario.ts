/**
 * A registration working under the role its cluster admin wrote for the CRD (docs/spec/registration.md
 * §7), run alike on the in-memory server (the role as denials) and on the real control plane (the role
 * as a labelled ClusterRole): the verbs chosen in `status.writeVerbs`, the instance Ready with its
 * finalizer, and what the hook and statusConfiguration wrote kept through every write.
 */
import { expect } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { hookedRegistration } from './hooks-fixtures.ts';
import { startScriptedHook, type HookRequestRecord, type ScriptedHook } from './hooks-server.ts';
import { conditionOf, namespaceObject, waitForCondition, registrationTarget } from './scoby.ts';

/** The roles of the scenario: which verbs the cluster admin granted on the resource and its status. */
export const ROLES = {
  /** The role Scoby ships in its docs: everything. */
  shipped: { resource: ['get', 'list', 'watch', 'update', 'patch'], status: ['get', 'update', 'patch'] },
  /** The original Scoby's documented role. */
  goScoby: { resource: ['get', 'list', 'watch', 'update'], status: ['update'] },
  /** Least privilege for a registration without a finalize hook: reads, and status updates. */
  readAndStatusUpdate: { resource: ['get', 'list', 'watch'], status: ['update'] },
  /** The original Scoby primer's role: no write on status at all. */
  primer: { resource: ['get', 'list', 'watch'], status: [] },
} as const;

export type RoleName = keyof typeof ROLES;

export interface WriteVerbsCase {
  role: RoleName;
  /** The hook has the finalize capability (Scoby's finalizer is written). */
  finalize: boolean;
  /** A group of its own per case. */
  group: string;
  writeVerbs: Record<string, string>;
}

export const WRITE_VERBS_CASES: readonly WriteVerbsCase[] = [
  {
    role: 'goScoby',
    finalize: true,
    group: 'gocrates.example.com',
    writeVerbs: { status: 'update', finalizers: 'update' },
  },
  {
    role: 'shipped',
    finalize: true,
    group: 'shippedcrates.example.com',
    writeVerbs: { status: 'patch', finalizers: 'patch' },
  },
  {
    role: 'readAndStatusUpdate',
    finalize: false,
    group: 'leastcrates.example.com',
    writeVerbs: { status: 'update' },
  },
];

/** A role that cannot work: the registration says what is missing. */
export const PRIMER_CASE: WriteVerbsCase = {
  role: 'primer',
  finalize: false,
  group: 'primercrates.example.com',
  writeVerbs: {},
};

export const PLURAL = 'crates';
const NAMESPACE = 'warehouse';

/** The ClusterRole granting `role` on a case's crates, labelled for aggregation into Scoby's. */
export function crateRole(testCase: WriteVerbsCase): KubeObject {
  const role = ROLES[testCase.role];
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: `scoby-${PLURAL}.${testCase.group}`,
      labels: { 'scoby.triggermesh.io/crdregistration': 'true' },
    },
    rules: [
      { apiGroups: [testCase.group], resources: [PLURAL], verbs: [...role.resource] },
      ...(role.status.length === 0
        ? []
        : [{ apiGroups: [testCase.group], resources: [`${PLURAL}/status`], verbs: [...role.status] }]),
    ],
  } as KubeObject;
}

/** The verbs `role` refuses, as the in-memory server's denials take them. */
export function refusedVerbs(testCase: WriteVerbsCase): { verb: string; subresource: string }[] {
  const role = ROLES[testCase.role];
  const writes = ['update', 'patch'];
  return [
    ...writes
      .filter((verb) => !(role.resource as readonly string[]).includes(verb))
      .map((verb) => ({ verb, subresource: '' })),
    ...writes
      .filter((verb) => !(role.status as readonly string[]).includes(verb))
      .map((verb) => ({ verb, subresource: 'status' })),
  ];
}

/** The hook: appends its QuotaChecked and a field of its own to the status it was sent. */
export async function startQuotaHook(): Promise<ScriptedHook> {
  return startScriptedHook((request: HookRequestRecord) => {
    if (request.body.phase === 'finalize') return { status: 204 };
    const status = (request.body.object.status ?? {}) as { conditions?: Record<string, unknown>[] };
    const conditions = (status.conditions ?? []).map((condition) =>
      condition.type === 'QuotaChecked'
        ? { ...condition, status: 'True', reason: 'WithinQuota', message: 'quota ok' }
        : condition,
    );
    return {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: { object: { status: { ...status, conditions, quota: { checkedBy: 'quota-hook' } } } },
    };
  });
}

export const apiOf = (testCase: WriteVerbsCase) => `${testCase.group}/v1`;
const registrationName = (testCase: WriteVerbsCase) => testCase.group.split('.')[0]!;

/** CRD, namespace and registration of a case; the role is the caller's (it differs per server). */
export async function registerCrates(cluster: ClusterVerbs, testCase: WriteVerbsCase, hook: ScriptedHook) {
  await cluster.apply(namespaceObject(NAMESPACE));
  await cluster.apply(crdFor({ group: testCase.group, kind: 'Crate', plural: PLURAL }));
  await cluster.waitFor(
    'the CRD served',
    async () => (await cluster.client.resourceFor(apiOf(testCase), 'Crate')) !== undefined,
  );
  await cluster.apply(
    hookedRegistration(registrationName(testCase), `${PLURAL}.${testCase.group}`, {
      hook: {
        address: { uri: hook.url },
        capabilities: testCase.finalize ? ['pre-reconcile', 'finalize'] : ['pre-reconcile'],
      },
      conditionsFromHook: ['QuotaChecked'],
      statusAdd: [{ path: 'status.size', valueFrom: { path: 'spec.size' } }],
    }),
  );
}

/**
 * The registration is Ready and names its verbs; an instance reaches Ready with the hook's condition
 * and field and statusConfiguration's value, its finalizer only with a finalize hook; an edit of
 * its spec is written over them keeping them; deleted, it goes (through the finalize hook).
 */
export async function cratesUnderRole(
  cluster: ClusterVerbs,
  testCase: WriteVerbsCase,
  hook: ScriptedHook,
): Promise<void> {
  const api = apiOf(testCase);
  const registration = await waitForCondition(
    cluster,
    registrationTarget(registrationName(testCase)),
    'Ready',
    'True',
  );
  expect((registration.status as Record<string, unknown>).writeVerbs).toEqual(testCase.writeVerbs);

  await cluster.apply({
    apiVersion: api,
    kind: 'Crate',
    metadata: { name: 'one', namespace: NAMESPACE },
    spec: { size: 'large' },
  });
  const settled = (size: string) => async () => {
    const crate = await cluster.get(api, 'Crate', NAMESPACE, 'one');
    const status = crate?.status as Record<string, unknown> | undefined;
    return conditionOf(crate, 'Ready')?.status === 'True' && status?.size === size ? crate : undefined;
  };
  const ready = await cluster.waitFor('the crate Ready', settled('large'));
  expect(ready.metadata.finalizers ?? []).toEqual(testCase.finalize ? [FINALIZER] : []);
  expect(ready.status).toMatchObject({ size: 'large', quota: { checkedBy: 'quota-hook' } });
  expect(conditionOf(ready, 'QuotaChecked')).toMatchObject({ status: 'True', reason: 'WithinQuota' });

  // A spec edit: statusConfiguration's value follows, the hook's field stays.
  const crate = { apiVersion: api, kind: 'Crate', namespace: NAMESPACE, name: 'one' };
  await cluster.edit(crate, (current) => ({ ...current, spec: { size: 'small' } }));
  const edited = await cluster.waitFor('the crate Ready for its new spec', settled('small'));
  expect(edited.status).toMatchObject({
    size: 'small',
    quota: { checkedBy: 'quota-hook' },
    observedGeneration: edited.metadata.generation,
  });
  expect(conditionOf(edited, 'QuotaChecked')).toMatchObject({ status: 'True' });

  await cluster.remove(edited);
  await cluster.waitFor(
    'the crate gone',
    async () => (await cluster.get(api, 'Crate', NAMESPACE, 'one')) === undefined,
  );
  const finalizeCalls = hook
    .callsFor('finalize', 'one')
    .filter((call) => call.body.object.apiVersion === api);
  expect(finalizeCalls).toHaveLength(testCase.finalize ? 1 : 0);
}

/** The primer role: MissingPermissions naming `patch or update` on the status, and no writeVerbs. */
export async function missingStatusWrite(cluster: ClusterVerbs, hook: ScriptedHook): Promise<void> {
  await registerCrates(cluster, PRIMER_CASE, hook);
  const refused = await waitForCondition(
    cluster,
    registrationTarget(registrationName(PRIMER_CASE)),
    'Ready',
    'False',
    'MissingPermissions',
  );
  expect(refused.status).not.toHaveProperty('writeVerbs');
  expect(conditionOf(refused, 'Ready')?.message).toBe(
    'the controller may not patch or update crates.primercrates.example.com/status (all namespaces); ' +
      'add to a ClusterRole labelled scoby.triggermesh.io/crdregistration: "true" the rules ' +
      '{apiGroups: ["primercrates.example.com"], resources: [crates/status], verbs: [patch]} ' +
      '(see https://github.com/scoby-ts/scoby/blob/main/docs/migration.md)',
  );
}
