/**
 * Warning Events about configuration the controller works around: EnvNameCollision on the instance
 * (docs/spec/env.md §7, E10) and StatusPathNotInSchema on the registration (docs/spec/children-and-status.md §8.9).
 * Each is written once; reconciles of unchanged objects write no further Events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  adapterOf,
  eventViews,
  namespaceObject,
  reconcileCount,
  REGISTRATION_API,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
  writesIn,
} from '../support/scoby.ts';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
  await cluster.apply(namespaceObject('shop'));
  await cluster.apply(crdFor({ group: 'apps.example.com', kind: 'Adapter', plural: 'adapters' }));
  await cluster.apply(
    crdFor({ group: 'sinks.example.com', kind: 'Sink', plural: 'sinks', status: SINK_STATUS_SCHEMA }),
  );
});
afterAll(() => cluster.stop());

/** Status schema admitting Scoby's own fields and `sinkUri`; `replicas` is not a string, `extra` not declared. */
const SINK_STATUS_SCHEMA = {
  type: 'object',
  properties: {
    observedGeneration: { type: 'integer' },
    conditions: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    sinkUri: { type: 'string' },
    replicas: { type: 'integer' },
  },
};

/** A reconcile of the unchanged object: only its labels move. */
async function touch(
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
  label: string,
) {
  await cluster.edit({ apiVersion, kind, namespace, name }, (current) => ({
    ...current,
    metadata: { ...current.metadata, labels: { touched: label } },
  }));
}

const byMessage = (a: { message: string }, b: { message: string }) => (a.message < b.message ? -1 : 1);

function eventCounts(events: readonly KubeObject[], reason: string): number[] {
  return events.filter((event) => event.reason === reason).map((event) => Number(event.count));
}

describe('EnvNameCollision (docs/spec/env.md §7, E10)', () => {
  const adapter = { apiVersion: 'apps.example.com/v1', kind: 'Adapter', namespace: 'shop', name: 'e10' };
  const collisions = [
    {
      type: 'Warning',
      reason: 'EnvNameCollision',
      message:
        'environment variable "LOGLEVEL" from "spec.loglevel" is not set: the name is set by "spec.logLevel"',
    },
    {
      type: 'Warning',
      reason: 'EnvNameCollision',
      message:
        'environment variable "PORT" from "spec.port" is not set: the name is set by "spec.listenPort"',
    },
  ];

  beforeAll(async () => {
    await cluster.apply(
      registrationObject('collide', {
        crd: 'adapters.apps.example.com',
        workload: {
          fromImage: { repo: 'registry.example.com/adapter:1.0.0' },
          formFactor: { deployment: { replicas: 1 } },
          parameterConfiguration: { fromSpec: { toEnv: [{ path: 'spec.listenPort', name: 'PORT' }] } },
        },
      }),
    );
    await waitForCondition(cluster, registrationTarget('collide'), 'Ready', 'True');
    await cluster.apply({
      apiVersion: adapter.apiVersion,
      kind: adapter.kind,
      metadata: { name: adapter.name, namespace: adapter.namespace },
      spec: { logLevel: 'debug', loglevel: 'warn', port: 8080, listenPort: 9090 },
    });
    await waitForCondition(cluster, adapter, 'Ready', 'True');
  });

  it('renders the winners only', async () => {
    const deployment = await cluster.get('apps/v1', 'Deployment', 'shop', 'collide-e10');
    expect(adapterOf(deployment).env).toEqual([
      { name: 'LOGLEVEL', value: 'debug' },
      { name: 'PORT', value: '9090' },
    ]);
  });

  it('emits one Warning Event per dropped variable, once', async () => {
    const events = await cluster.waitFor('two EnvNameCollision events', async () => {
      const found = (await cluster.events('shop', 'e10')).filter(
        (event) => event.reason === 'EnvNameCollision',
      );
      return found.length >= 2 ? found : undefined;
    });
    expect(eventViews(events).sort(byMessage)).toEqual(collisions);
    expect(events.map((event) => event.involvedObject)).toEqual([
      expect.objectContaining({
        apiVersion: 'apps.example.com/v1',
        kind: 'Adapter',
        namespace: 'shop',
        name: 'e10',
      }),
      expect.objectContaining({
        apiVersion: 'apps.example.com/v1',
        kind: 'Adapter',
        namespace: 'shop',
        name: 'e10',
      }),
    ]);
    expect(eventCounts(events, 'EnvNameCollision')).toEqual([1, 1]);
  });

  it('writes no Event on further reconciles of the unchanged instance', async () => {
    const metrics = cluster.controller.metrics;
    await sleep(300);
    const before = await reconcileCount(metrics, 'collide');
    cluster.server.requestLog.clear();
    await touch(adapter.apiVersion, adapter.kind, adapter.namespace, adapter.name, 'once');
    await cluster.waitFor(
      'a reconcile of the touched instance',
      async () => (await reconcileCount(metrics, 'collide')) > before,
    );
    await touch(adapter.apiVersion, adapter.kind, adapter.namespace, adapter.name, 'twice');
    await sleep(500);

    expect(await reconcileCount(metrics, 'collide')).toBeGreaterThanOrEqual(before + 2);
    expect(writesIn(cluster.server.requestLog.entries(), '/events')).toEqual([]);
    const events = await cluster.events('shop', 'e10');
    const warnings = eventViews(events).filter((event) => event.type === 'Warning');
    expect(warnings.sort(byMessage)).toEqual(collisions);
    expect(eventCounts(events, 'EnvNameCollision')).toEqual([1, 1]);
  });
});

describe('StatusPathNotInSchema (docs/spec/children-and-status.md §8.9)', () => {
  const sink = { apiVersion: 'sinks.example.com/v1', kind: 'Sink', namespace: 'shop', name: 'audit' };
  const statusAdd = (paths: string[]) => paths.map((path) => ({ path, valueFrom: { path: 'spec.target' } }));
  const registrationWith = (paths: string[]) =>
    registrationObject('sink', {
      crd: 'sinks.sinks.example.com',
      workload: {
        fromImage: { repo: 'registry.example.com/sink:1.0.0' },
        formFactor: { deployment: { replicas: 1 } },
        statusConfiguration: { add: statusAdd(paths) },
      },
    });
  const registrationEvents = async () =>
    (await cluster.events('default', 'sink')).filter((event) => event.reason === 'StatusPathNotInSchema');

  beforeAll(async () => {
    await cluster.apply(registrationWith(['status.replicas', 'status.sinkUri', 'status.extra.note']));
    await waitForCondition(cluster, registrationTarget('sink'), 'Ready', 'True');
    await cluster.apply({
      apiVersion: sink.apiVersion,
      kind: sink.kind,
      metadata: { name: sink.name, namespace: sink.namespace },
      spec: { target: 'http://collector.shop.svc.cluster.local' },
    });
  });

  it('skips the paths the status schema does not allow and still writes the allowed one', async () => {
    const ready = await waitForCondition(cluster, sink, 'Ready', 'True');
    const { conditions: _conditions, ...status } = ready.status as Record<string, unknown>;
    expect(status).toEqual({ observedGeneration: 1, sinkUri: 'http://collector.shop.svc.cluster.local' });
  });

  it('emits one Warning Event on the registration naming every rejected path', async () => {
    const events = await cluster.waitFor('StatusPathNotInSchema event', async () => {
      const found = await registrationEvents();
      return found.length > 0 ? found : undefined;
    });
    expect(eventViews(events)).toEqual([
      {
        type: 'Warning',
        reason: 'StatusPathNotInSchema',
        message:
          'statusConfiguration.add paths not allowed by the status schema of CRD "sinks.sinks.example.com" version v1: status.replicas, status.extra.note',
      },
    ]);
    expect(events[0]?.involvedObject).toEqual(
      expect.objectContaining({ apiVersion: REGISTRATION_API, kind: 'CRDRegistration', name: 'sink' }),
    );
    expect(eventCounts(events, 'StatusPathNotInSchema')).toEqual([1]);
  });

  it('writes no Event when the registration is reconciled with the same configuration', async () => {
    await sleep(300);
    cluster.server.requestLog.clear();
    await touch(REGISTRATION_API, 'CRDRegistration', undefined, 'sink', 'once');
    await touch(sink.apiVersion, sink.kind, sink.namespace, sink.name, 'once');
    await sleep(500);
    expect(writesIn(cluster.server.requestLog.entries(), '/events')).toEqual([]);
    expect(eventCounts(await registrationEvents(), 'StatusPathNotInSchema')).toEqual([1]);
  });

  it('emits one more Event for a new configuration', async () => {
    const next = registrationWith(['status.sinkUri', 'status.extra.note']);
    await cluster.edit(registrationTarget('sink'), (current) => ({ ...next, metadata: current.metadata }));
    const events = await cluster.waitFor('a second StatusPathNotInSchema event', async () => {
      const found = await registrationEvents();
      return found.length > 1 ? found : undefined;
    });
    expect(eventViews(events).sort(byMessage)).toEqual([
      {
        type: 'Warning',
        reason: 'StatusPathNotInSchema',
        message:
          'statusConfiguration.add paths not allowed by the status schema of CRD "sinks.sinks.example.com" version v1: status.extra.note',
      },
      {
        type: 'Warning',
        reason: 'StatusPathNotInSchema',
        message:
          'statusConfiguration.add paths not allowed by the status schema of CRD "sinks.sinks.example.com" version v1: status.replicas, status.extra.note',
      },
    ]);
    expect(eventCounts(events, 'StatusPathNotInSchema')).toEqual([1, 1]);
  });
});
