/**
 * Drop-in migration on the real control plane: a cluster as Go Scoby leaves it (its per-CRD
 * ClusterRole as documented, children created with Update by its field manager, instances with its
 * status and finalizer, a registration with a dot in its name) is taken over by this controller running
 * as Scoby's ServiceAccount. Go Scoby's role works unchanged (status and finalizers written with
 * update, docs/spec/registration.md §7), the shipped one with patch; nothing is recreated (same uids),
 * the status continues (same lastTransitionTime), the finalizer is honoured (finalize hook called,
 * then released), and a registration edit reaches every child.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHookServer, type HookRequest, type HookServer } from '@scoby/hooks-v1';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/process/manager.ts';
import { crdFor, type ClusterVerbs } from '../support/cluster.ts';
import {
  conditionOf,
  conditionsOf,
  editRegistration,
  registrationObject,
  registrationTarget,
  waitForCondition,
} from '../support/scoby.ts';
import { registeredKindRole } from './support/grants.ts';
import {
  GO_SCOBY_FIELD_MANAGER,
  GO_SCOBY_FINALIZER,
  GoScobyWriter,
  goScobyDeployment,
  goScobyKindRole,
  goScobyService,
} from './support/go-scoby.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const GROUP = 'migrate.real.example.com';
const API = `${GROUP}/v1`;
const NAMESPACE = 'migrate';
const IMAGE = 'registry.example.com/kuard:1';
/** Go Scoby's lastTransitionTime (RFC 3339, seconds), kept by a continuous status. */
const SINCE = '2026-01-02T03:04:05Z';

let admin: ClusterVerbs;
let goScoby: GoScobyWriter;
let hook: HookServer;
let controller: RunningProcess | undefined;
const finalized: string[] = [];
/** uid of each child Go Scoby created, by `<Kind>/<name>`. */
const goChildren = new Map<string, string>();

function registrationSpec(crd: string, service: boolean, env: { name: string; value: string }[]) {
  return {
    crd,
    workload: {
      fromImage: { repo: IMAGE },
      formFactor: {
        deployment: { replicas: 1, ...(service ? { service: { port: 80, targetPort: 8080 } } : {}) },
      },
      parameterConfiguration: { add: { toEnv: env } },
    },
    hook: { version: 'v1', address: { uri: hook.url }, capabilities: ['finalize'] },
  };
}

const EXTRA = { name: 'EXTRA', value: 'on' };

/** A registration as Go Scoby leaves it: its finalizer, and Ready with its reasons. */
async function goRegistration(name: string, spec: Record<string, unknown>): Promise<void> {
  const created = await goScoby.create({
    ...registrationObject(name, spec),
    metadata: { name, finalizers: [GO_SCOBY_FINALIZER] },
  });
  const condition = (type: string, reason: string) => ({
    type,
    status: 'True',
    reason,
    message: '',
    lastTransitionTime: SINCE,
  });
  await goScoby.update(
    {
      ...created,
      status: {
        observedGeneration: 1,
        conditions: [
          condition('CRDExists', 'CRDEXIST'),
          condition('ControllerReady', 'CONTROLLERSTARTED'),
          condition('Ready', 'CONDITIONSOK'),
        ],
        annotations: { hookURL: hook.url },
      },
    },
    'status',
  );
}

/** An instance Go Scoby reconciled: finalizer (its registration has a finalize hook), children, status. */
async function goInstance(
  registration: string,
  kind: string,
  name: string,
  greeting: string,
  service: boolean,
): Promise<void> {
  const instance = await goScoby.create({
    apiVersion: API,
    kind,
    metadata: { name, namespace: NAMESPACE, finalizers: [GO_SCOBY_FINALIZER] },
    spec: { greeting },
  });
  const env = [{ name: 'GREETING', value: greeting }, EXTRA];
  const children = [goScobyDeployment(registration, instance, IMAGE, env)];
  if (service) children.push(goScobyService(registration, instance, 80, 8080));
  for (const child of children) {
    const created = await goScoby.create(child);
    goChildren.set(`${child.kind}/${child.metadata.name}`, created.metadata.uid ?? '');
  }
  const condition = (type: string, reason: string) => ({
    type,
    status: 'True',
    reason,
    message: '',
    lastTransitionTime: SINCE,
  });
  await goScoby.update(
    {
      ...instance,
      status: {
        observedGeneration: 1,
        conditions: [
          condition('DeploymentReady', 'MinimumReplicasAvailable'),
          ...(service ? [condition('ServiceReady', 'ServiceExist')] : []),
          condition('Ready', 'CONDITIONSOK'),
        ],
        ...(service
          ? { address: { url: `http://${registration}-${name}.${NAMESPACE}.svc.cluster.local` } }
          : {}),
      },
    },
    'status',
  );
}

beforeAll(async () => {
  admin = realClusterAdmin();
  goScoby = new GoScobyWriter(admin.client);
  hook = await startHookServer({
    formFactorFormat: 'object',
    finalize: (request: HookRequest) => void finalized.push(String(request.object.metadata.name)),
  });
  await admin.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  for (const [kind, plural] of [
    ['Kuard', 'kuards'],
    ['Webhook', 'webhooks'],
  ] as const) {
    await admin.apply(crdFor({ group: GROUP, kind, plural }));
    await admin.apply(goScobyKindRole(GROUP, plural));
  }
  // The shipped role for webhooks (with patch); kuards keep Go Scoby's role as documented.
  await admin.apply(registeredKindRole(GROUP, 'webhooks'));
  await admin.waitFor(
    'the CRDs served',
    async () =>
      (await admin.client.resourceFor(API, 'Webhook')) && (await admin.client.resourceFor(API, 'Kuard')),
  );
  await goRegistration('kuard', registrationSpec(`kuards.${GROUP}`, true, [EXTRA]));
  // Go Scoby could create the Deployment of a registration with a dot, never its Service.
  await goRegistration('sources.acme', registrationSpec(`webhooks.${GROUP}`, false, [EXTRA]));
  await goInstance('kuard', 'Kuard', 'one', 'hello', true);
  await goInstance('kuard', 'Kuard', 'two', 'hi', true);
  await goInstance('sources.acme', 'Webhook', 'orders', 'hey', false);
  await admin.waitFor('the Deployments Go Scoby created Available (kwok)', async () => {
    const deployments = await admin.list('apps/v1', 'Deployment', NAMESPACE);
    return (
      deployments.length === 3 &&
      deployments.every((deployment) =>
        (
          (deployment.status as { conditions?: { type: string; status: string }[] } | undefined)
            ?.conditions ?? []
        ).some((condition) => condition.type === 'Available' && condition.status === 'True'),
      )
    );
  });
}, 180_000);

afterAll(async () => {
  await controller?.stop();
  await hook?.close();
  await admin?.stop();
});

async function child(key: string): Promise<KubeObject | undefined> {
  const [kind, name] = key.split('/') as [string, string];
  return admin.get(kind === 'Service' ? 'v1' : 'apps/v1', kind, NAMESPACE, name);
}

function envNames(deployment: KubeObject | undefined): string[] {
  const containers =
    (
      deployment?.spec as
        { template?: { spec?: { containers?: { env?: { name: string }[] }[] } } } | undefined
    )?.template?.spec?.containers ?? [];
  return (containers[0]?.env ?? []).map((entry) => entry.name).sort();
}

function scobyEntries(object: KubeObject | undefined): string[] {
  return (
    (object?.metadata.managedFields ?? []) as { manager: string; operation: string; subresource?: string }[]
  )
    .filter((entry) => entry.manager === GO_SCOBY_FIELD_MANAGER && entry.subresource === undefined)
    .map((entry) => entry.operation);
}

const HASH = 'scoby.triggermesh.io/desired-hash';

describe('taking over from Go Scoby on the real control plane', () => {
  it("works under Go Scoby's documented role unchanged, writing with update, and with patch under the shipped role", async () => {
    controller = startRealController({ hookFormFactorFormat: 'object' });
    for (const [name, writeVerbs] of [
      ['kuard', { status: 'update', finalizers: 'update' }],
      ['sources.acme', { status: 'patch', finalizers: 'patch' }],
    ] as const) {
      const registration = await admin.waitFor(`${name} names its write verbs`, async () => {
        const current = await admin.get(
          registrationTarget(name).apiVersion,
          'CRDRegistration',
          undefined,
          name,
        );
        return (current?.status as { writeVerbs?: unknown } | undefined)?.writeVerbs ? current : undefined;
      });
      expect((registration.status as { writeVerbs?: unknown }).writeVerbs, name).toEqual(writeVerbs);
      expect(conditionOf(registration, 'Ready'), name).toMatchObject({
        status: 'True',
        reason: 'CONDITIONSOK',
      });
    }
  });

  it('adopts every child without recreating it and continues the status', async () => {
    for (const name of ['kuard', 'sources.acme']) {
      await waitForCondition(admin, registrationTarget(name), 'Ready', 'True', undefined, 90_000);
    }
    for (const [key, uid] of goChildren) {
      const adopted = await admin.waitFor(`${key} applied by Scoby`, async () => {
        const object = await child(key);
        return object?.metadata.annotations?.[HASH] ? object : undefined;
      });
      expect(adopted.metadata.uid, key).toBe(uid);
      // Go Scoby's Update entry became Scoby's Apply entry (csaupgrade), so later applies can drop its fields.
      expect(scobyEntries(adopted), key).toEqual(['Apply']);
    }
    // The dotted registration's Deployment kept Go Scoby's name (checked by uid above).
    expect(goChildren.has('Deployment/sources.acme-orders')).toBe(true);
    for (const [kind, name] of [
      ['Kuard', 'one'],
      ['Kuard', 'two'],
      ['Webhook', 'orders'],
    ] as const) {
      const instance = await admin.waitFor(`${kind} ${name} reconciled by Scoby`, async () => {
        const object = await admin.get(API, kind, NAMESPACE, name);
        return conditionOf(object, 'Ready')?.reason === 'CONDITIONSOK' &&
          (object?.status as { observedGeneration?: number } | undefined)?.observedGeneration === 1 &&
          conditionsOf(object).every((condition) => condition.status === 'True')
          ? object
          : undefined;
      });
      const ready = (
        instance.status as { conditions: { type: string; lastTransitionTime: string }[] }
      ).conditions.find((condition) => condition.type === 'Ready');
      expect(ready?.lastTransitionTime, `${kind} ${name}`).toBe(SINCE);
      expect(instance.metadata.finalizers).toEqual([GO_SCOBY_FINALIZER]);
    }
  });

  it('lets a registration edit reach every child: a removed variable leaves each Deployment', async () => {
    for (const [name, crd, service] of [
      ['kuard', `kuards.${GROUP}`, true],
      ['sources.acme', `webhooks.${GROUP}`, false],
    ] as const) {
      await editRegistration(admin, name, () => registrationSpec(crd, service, []));
    }
    for (const key of [...goChildren.keys()].filter((key) => key.startsWith('Deployment/'))) {
      const edited = await admin.waitFor(`${key} without EXTRA`, async () => {
        const object = await child(key);
        return envNames(object).includes('EXTRA') ? undefined : object;
      });
      expect(envNames(edited), key).toEqual(['GREETING']);
      expect(edited?.metadata.uid, key).toBe(goChildren.get(key));
    }
    // The rollouts kept the instances Ready throughout: the transition time is still Go Scoby's.
    for (const [kind, name] of [
      ['Kuard', 'one'],
      ['Webhook', 'orders'],
    ] as const) {
      const instance = await admin.get(API, kind, NAMESPACE, name);
      expect(conditionOf(instance, 'Ready')?.status).toBe('True');
      const conditions = (instance?.status as { conditions: { type: string; lastTransitionTime: string }[] })
        .conditions;
      expect(conditions.find((condition) => condition.type === 'Ready')?.lastTransitionTime).toBe(SINCE);
    }
  });

  it("keeps the status of both registrations, Go Scoby's role or not: Ready since Go Scoby", async () => {
    for (const name of ['kuard', 'sources.acme']) {
      const registration = await admin.get(
        registrationTarget(name).apiVersion,
        'CRDRegistration',
        undefined,
        name,
      );
      const conditions = (
        registration?.status as { conditions: { type: string; status: string; lastTransitionTime: string }[] }
      ).conditions;
      expect(
        conditions.map(({ type, status, lastTransitionTime }) => ({ type, status, lastTransitionTime })),
        name,
      ).toEqual(
        ['CRDExists', 'ControllerReady', 'Ready'].map((type) => ({
          type,
          status: 'True',
          lastTransitionTime: SINCE,
        })),
      );
    }
  });

  it("honours Go Scoby's finalizer: the finalize hook is called, then the instance goes", async () => {
    const one = await admin.get(API, 'Kuard', NAMESPACE, 'one');
    await admin.remove(one!);
    await admin.waitFor('Kuard one gone', async () =>
      (await admin.get(API, 'Kuard', NAMESPACE, 'one')) === undefined ? true : undefined,
    );
    expect(finalized).toEqual(['one']);
  });
});
