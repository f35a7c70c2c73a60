/**
 * The pre-reconcile hook in the instance reconcile (docs/spec/hooks-v1.md §3–§5, docs/spec/children-and-status.md §1
 * step 8, §8.10): what the hook receives, and what Scoby does with its answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { captureLogs } from '@scoby/controller-runtime/testing';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf, conditionsOf } from '../support/scoby.ts';
import {
  eventsOf,
  expectedChildren,
  hookedRegistration,
  instanceWhere,
  mergePatch,
  registrationReady,
  type InstanceIdentity,
  writtenBodies,
} from '../support/hooks-fixtures.ts';
import { NO_CHANGE, startScriptedHook, type HookScript, type ScriptedHook } from '../support/hooks-server.ts';

const API = 'notify.example.com/v1';
const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
const SMTP_ENV = [{ name: 'SMTP_HOST', value: 'mail.internal' }];

let cluster: TestCluster;
const logs = captureLogs('info');
let hook: ScriptedHook;
/** The hook's behaviour per instance name; NO_CHANGE for the others. */
const behaviour = new Map<string, HookScript>();

beforeAll(async () => {
  cluster = await startTestCluster({ logger: logs.logger });
  hook = await startScriptedHook((request) =>
    (behaviour.get(request.body.object.metadata.name ?? '') ?? NO_CHANGE)(request),
  );
  await cluster.apply(crdFor({ group: 'notify.example.com', kind: 'Mailer', plural: 'mailers' }));
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  await cluster.apply(
    hookedRegistration('mailer', 'mailers.notify.example.com', {
      hook: { address: { uri: `${hook.url}v1?tenant=a` }, capabilities: ['pre-reconcile'] },
      conditionsFromHook: ['QuotaChecked'],
      statusAdd: [{ path: 'status.smtpHost', valueFrom: { path: 'spec.smtp.host' } }],
    }),
  );
  await registrationReady(cluster, 'mailer');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

function createMailer(name: string): Promise<KubeObject> {
  return cluster.apply({
    apiVersion: API,
    kind: 'Mailer',
    metadata: { name, namespace: 'shop' },
    spec: { smtp: { host: 'mail.internal' } },
  });
}

function identity(instance: KubeObject): InstanceIdentity {
  return {
    apiVersion: API,
    kind: 'Mailer',
    namespace: 'shop',
    name: instance.metadata.name ?? '',
    uid: instance.metadata.uid ?? '',
  };
}

const mailer = (name: string, description: string, probe: (object: KubeObject) => boolean) =>
  instanceWhere(cluster, API, 'Mailer', 'shop', name, description, probe);

const isReady = (object: KubeObject) => conditionOf(object, 'Ready')?.status === 'True';
/** Children observed; Ready stays Unknown while the hook never sets QuotaChecked. */
const childrenReady = (object: KubeObject) =>
  conditionOf(object, 'DeploymentReady')?.status === 'True' &&
  conditionOf(object, 'ServiceReady')?.status === 'True';

/** The status without lastTransitionTime. */
function statusView(object: KubeObject): Record<string, unknown> {
  return { ...(object.status as Record<string, unknown>), conditions: conditionsOf(object) };
}

/** Changes an annotation: a reconcile (and so a hook call) follows. */
async function touch(name: string, value: string): Promise<void> {
  await mergePatch(
    cluster,
    { apiVersion: API, kind: 'Mailer', namespace: 'shop', name },
    { metadata: { annotations: { touched: value } } },
  );
}

describe('the pre-reconcile request (docs/spec/hooks-v1.md §2, §3)', () => {
  it('POSTs to the hook URL exactly, with the instance, its working status and the children map', async () => {
    const instance = await createMailer('plain');
    await mailer('plain', 'children ready', childrenReady);
    const [first] = hook.callsFor('pre-reconcile', 'plain');
    expect(first?.method).toBe('POST');
    expect(first?.target).toBe('/v1?tenant=a');
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.headers.accept).toBe('application/json');
    expect(first?.headers['user-agent']).toMatch(/^scoby-controller\/\d+\.\d+\.\d+$/);
    const unknown = (type: string) => ({
      type,
      status: 'Unknown',
      reason: 'UNKNOWN',
      message: '',
      lastTransitionTime: TIME,
    });
    expect(first?.body).toEqual({
      formFactor: 'deployment',
      phase: 'pre-reconcile',
      object: {
        apiVersion: API,
        kind: 'Mailer',
        metadata: {
          name: 'plain',
          namespace: 'shop',
          uid: instance.metadata.uid,
          generation: 1,
          creationTimestamp: instance.metadata.creationTimestamp,
          resourceVersion: expect.any(String),
        },
        spec: { smtp: { host: 'mail.internal' } },
        // Conditions initialised, statusConfiguration.add applied.
        status: {
          conditions: [
            unknown('DeploymentReady'),
            unknown('QuotaChecked'),
            unknown('Ready'),
            unknown('ServiceReady'),
          ],
          smtpHost: 'mail.internal',
        },
      },
      children: expectedChildren('mailer', identity(instance), SMTP_ENV),
    });
  });

  it('sends the stored status as it is, with conditions initialised, on later reconciles', async () => {
    const before = hook.callsFor('pre-reconcile', 'plain').length;
    await touch('plain', 'once');
    const call = await cluster.waitFor(
      'a new call',
      async () => hook.callsFor('pre-reconcile', 'plain')[before],
    );
    const status = call.body.object.status as Record<string, unknown>;
    // observedGeneration and the form-factor conditions still describe the previous reconcile.
    expect({ ...status, conditions: conditionsOf(call.body.object) }).toEqual({
      observedGeneration: 1,
      smtpHost: 'mail.internal',
      address: { url: 'http://mailer-plain.shop.svc.cluster.local' },
      conditions: [
        { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
        { type: 'QuotaChecked', status: 'Unknown', reason: 'UNKNOWN', message: '' },
        { type: 'Ready', status: 'Unknown', reason: 'UNKNOWN', message: '' },
        { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
      ],
    });
  });
});

describe('applying a pre-reconcile answer (docs/spec/hooks-v1.md §5)', () => {
  it('writes reshaped children, takes the status, ignores spec and label changes with a Warning', async () => {
    behaviour.set('orders', (request) => {
      const children = structuredClone(request.body.children!);
      const container = (
        children.deployment!.spec as { template: { spec: { containers: Record<string, unknown>[] } } }
      ).template.spec.containers[0]!;
      container.env = [...(container.env as unknown[]), { name: 'QUOTA_LIMIT', value: '500' }];
      container.resources = { requests: { cpu: '100m' } };
      const received = request.body.object;
      return {
        status: 200,
        body: {
          object: {
            apiVersion: received.apiVersion,
            kind: received.kind,
            metadata: { name: 'orders', namespace: 'shop', labels: { team: 'payments' } },
            spec: { smtp: { host: 'evil.example.com' } },
            status: {
              ...(received.status as Record<string, unknown>),
              annotations: { quota: '120/500' },
              conditions: [
                {
                  type: 'QuotaChecked',
                  status: 'True',
                  reason: 'QuotaAvailable',
                  message: '120 of 500 messages sent today',
                },
                { type: 'Ready', status: 'False', reason: 'Forged', message: 'a hook cannot set Ready' },
              ],
            },
          },
          children,
        },
      };
    });
    const instance = await createMailer('orders');
    const ready = await mailer('orders', 'Ready', isReady);

    expect(statusView(ready)).toEqual({
      observedGeneration: 1,
      smtpHost: 'mail.internal',
      annotations: { quota: '120/500' },
      address: { url: 'http://mailer-orders.shop.svc.cluster.local' },
      conditions: [
        { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
        {
          type: 'QuotaChecked',
          status: 'True',
          reason: 'QuotaAvailable',
          message: '120 of 500 messages sent today',
        },
        { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
        { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
      ],
    });
    expect(ready.spec).toEqual({ smtp: { host: 'mail.internal' } });
    expect(ready.metadata.labels).toBeUndefined();

    const expected = expectedChildren('mailer', identity(instance), [
      ...SMTP_ENV,
      { name: 'QUOTA_LIMIT', value: '500' },
    ]);
    const deployment = expected.deployment!;
    const containers = (deployment.spec as { template: { spec: { containers: Record<string, unknown>[] } } })
      .template.spec.containers;
    containers[0]!.resources = { requests: { cpu: '100m' } };
    const written = writtenBodies(cluster, '/apis/apps/v1/namespaces/shop/deployments/mailer-orders');
    expect(written.at(-1)).toEqual({
      ...deployment,
      metadata: {
        ...deployment.metadata,
        annotations: { 'scoby.triggermesh.io/desired-hash': expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
    });

    const ignored = (await eventsOf(cluster, 'shop', 'orders')).filter(
      (event) => event.reason === 'HookObjectChangesIgnored',
    );
    expect(ignored).toEqual([
      {
        type: 'Warning',
        reason: 'HookObjectChangesIgnored',
        message: 'hook changes to spec, metadata.labels are ignored; only status is applied',
      },
    ]);
  });

  it("takes the hook's entry for a repeated condition type, as a hook that appends its entry sends it, and says so", async () => {
    // The hook appends its QuotaChecked beside the Unknown one Scoby initialised.
    behaviour.set('appended', (request) => {
      const status = { ...(request.body.object.status as Record<string, unknown>) };
      const conditions = status.conditions as unknown[];
      status.conditions = [
        ...conditions,
        { type: 'QuotaChecked', status: 'True', reason: 'WithinQuota', message: '' },
      ];
      return { status: 200, body: { object: { status } } };
    });
    await createMailer('appended');
    const ready = await mailer('appended', 'Ready', isReady);
    expect(conditionsOf(ready)).toEqual([
      { type: 'DeploymentReady', status: 'True', reason: 'MinimumReplicasAvailable', message: '' },
      { type: 'QuotaChecked', status: 'True', reason: 'WithinQuota', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
      { type: 'ServiceReady', status: 'True', reason: 'ServiceExist', message: '' },
    ]);
    const message =
      'pre-reconcile hook: status.conditions repeats type QuotaChecked; the last entry of each is used';
    // One Event while the answer keeps repeating the type, however many reconciles follow.
    expect(
      (await eventsOf(cluster, 'shop', 'appended')).filter(
        (event) => event.reason === 'HookConditionRepeated',
      ),
    ).toEqual([{ type: 'Warning', reason: 'HookConditionRepeated', message }]);
    expect(logs.lines().filter((line) => line.instance === 'shop/appended' && line.level === 'warn')).toEqual(
      [expect.objectContaining({ level: 'warn', instance: 'shop/appended', kind: 'Mailer', msg: message })],
    );
  });

  it('creates a child the hook adds, owned and labelled, and prunes it once the hook stops returning it', async () => {
    behaviour.set('metrics', (request) => ({
      status: 200,
      body: {
        children: {
          ...request.body.children,
          scrape: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'mailer-metrics-scrape', labels: { 'prometheus.io/scrape': 'true' } },
            spec: { selector: { app: 'mailer' }, ports: [{ port: 9090, targetPort: 9090, protocol: 'TCP' }] },
          },
        },
      },
    }));
    const instance = await createMailer('metrics');
    const scrape = await cluster.waitFor('the added Service', () =>
      cluster.get('v1', 'Service', 'shop', 'mailer-metrics-scrape'),
    );
    const expected = expectedChildren('mailer', identity(instance), SMTP_ENV).service!;
    expect(scrape.metadata.ownerReferences).toEqual(expected.metadata.ownerReferences);
    expect(scrape.metadata.labels).toEqual({ 'prometheus.io/scrape': 'true', ...expected.metadata.labels });
    expect(scrape.spec).toMatchObject({
      selector: { app: 'mailer' },
      ports: [{ port: 9090, targetPort: 9090, protocol: 'TCP' }],
    });
    await mailer('metrics', 'children ready', childrenReady);

    behaviour.delete('metrics');
    await touch('metrics', 'drop the scrape Service');
    await cluster.waitFor(
      'the added Service pruned',
      async () => (await cluster.get('v1', 'Service', 'shop', 'mailer-metrics-scrape')) === undefined,
    );
    expect(await cluster.get('v1', 'Service', 'shop', 'mailer-metrics')).toBeDefined();
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', 'mailer-metrics')).toBeDefined();
  });

  it.each([
    {
      name: 'missing-child',
      children: (sent: Record<string, KubeObject>) => ({ deployment: sent.deployment }),
      message: 'pre-reconcile hook: invalid response: children.service: missing',
    },
    {
      name: 'foreign-kind',
      children: (sent: Record<string, KubeObject>) => ({
        ...sent,
        extra: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' } },
      }),
      message:
        'pre-reconcile hook: invalid response: children.extra: kind "ConfigMap" (v1) is not managed by form factor "deployment"',
    },
  ])('rejects invalid children ($name): HookFailed, nothing written', async ({ name, children, message }) => {
    behaviour.set(name, (request) => ({ status: 200, body: { children: children(request.body.children!) } }));
    await createMailer(name);
    const failed = await mailer(
      name,
      'Ready=False',
      (object) => conditionOf(object, 'Ready')?.status === 'False',
    );
    expect(conditionsOf(failed)).toEqual([
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      // An answer Scoby cannot take leaves the hook's conditions Unknown with the failure (§8.5).
      { type: 'QuotaChecked', status: 'Unknown', reason: 'HookFailed', message },
      { type: 'Ready', status: 'False', reason: 'HookFailed', message },
      { type: 'Reconciling', status: 'True', reason: 'HookFailed', message },
      { type: 'ServiceReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
    ]);
    const events = await eventsOf(cluster, 'shop', name);
    expect(events.filter((event) => event.reason === 'HookFailed')).toEqual([
      { type: 'Warning', reason: 'HookFailed', message },
    ]);
    expect(await cluster.get('apps/v1', 'Deployment', 'shop', `mailer-${name}`)).toBeUndefined();
    expect(await cluster.get('v1', 'Service', 'shop', `mailer-${name}`)).toBeUndefined();
  });
});
