import { Writable } from 'node:stream';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, resourcePath, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { EventRecorder, type EventRecorderOptions, EVENTS } from '../../src/events/event-recorder.ts';
import { writeScopes } from '../../src/client/write-scope.ts';
import { createLogger } from '../../src/log/logger.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };
const START = Date.UTC(2024, 4, 1, 10, 0, 0);

const instance: KubeObject = {
  apiVersion: 'notify.example.com/v1',
  kind: 'Mailer',
  metadata: {
    namespace: 'shop',
    name: 'orders',
    uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
    resourceVersion: '42',
  },
};

let server: InMemoryApiServer;
let client: DynamicClient;
let clock: ManualClock;

beforeEach(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
  await client.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  clock = new ManualClock(START);
});

afterEach(async () => {
  client.close();
  await server.stop();
});

function recorder(options: Partial<EventRecorderOptions> = {}): EventRecorder {
  return new EventRecorder({
    client,
    clock,
    component: 'scoby-controller',
    reportingInstance: 'pod-1',
    aggregationWindowMs: 60_000,
    ...options,
  });
}

async function events(namespace = 'shop'): Promise<KubeObject[]> {
  return (await client.list(EVENTS, namespace)).items;
}

/** The fields a test cares about, without server-set metadata. */
function summary(event: KubeObject): Record<string, unknown> {
  const { reason, message, type, count, firstTimestamp, lastTimestamp } = event as Record<string, unknown>;
  return { reason, message, type, count, firstTimestamp, lastTimestamp };
}

describe('EventRecorder against an API server', () => {
  it('creates a complete core/v1 Event', async () => {
    await recorder().warning(instance, 'RenderFailed', 'spec.schedule: not a cron expression');
    const [listed, ...others] = await events();
    expect(others).toEqual([]);
    expect(listed?.metadata.name).toMatch(/^orders\.[0-9a-f]+$/);
    // Read on its own: the items of a built-in list carry no apiVersion and kind, as kube-apiserver's.
    const event = await client.get(EVENTS, 'shop', listed!.metadata.name!);
    expect(event).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { namespace: 'shop' },
      involvedObject: {
        apiVersion: 'notify.example.com/v1',
        kind: 'Mailer',
        name: 'orders',
        namespace: 'shop',
        uid: '7c1e2a4b-5d6f-4a81-9b0c-2e3f4a5b6c7d',
        resourceVersion: '42',
      },
      type: 'Warning',
      reason: 'RenderFailed',
      message: 'spec.schedule: not a cron expression',
      source: { component: 'scoby-controller' },
      reportingComponent: 'scoby-controller',
      reportingInstance: 'pod-1',
      firstTimestamp: '2024-05-01T10:00:00Z',
      lastTimestamp: '2024-05-01T10:00:00Z',
      count: 1,
    });
  });

  it('aggregates repeats within the window into one Event with a count', async () => {
    const events$ = recorder();
    await events$.warning(instance, 'HookFailed', 'hook answered 500');
    await clock.advance(5_000);
    await events$.warning(instance, 'HookFailed', 'hook answered 500');
    await clock.advance(5_000);
    await events$.warning(instance, 'HookFailed', 'hook answered 500');
    expect((await events()).map(summary)).toEqual([
      {
        reason: 'HookFailed',
        message: 'hook answered 500',
        type: 'Warning',
        count: 3,
        firstTimestamp: '2024-05-01T10:00:00Z',
        lastTimestamp: '2024-05-01T10:00:10Z',
      },
    ]);
  });

  it('keeps different messages, reasons, types and objects apart', async () => {
    const events$ = recorder();
    await events$.warning(instance, 'HookFailed', 'one');
    await events$.warning(instance, 'HookFailed', 'two');
    await events$.warning(instance, 'ApplyFailed', 'one');
    await events$.normal(instance, 'HookFailed', 'one');
    await events$.warning(
      { ...instance, metadata: { ...instance.metadata, name: 'refunds', uid: 'other' } },
      'HookFailed',
      'one',
    );
    const all = await events();
    expect(all).toHaveLength(5);
    expect(all.every((event) => (event as { count?: number }).count === 1)).toBe(true);
  });

  it('starts a new Event once the window has passed', async () => {
    const events$ = recorder();
    await events$.warning(instance, 'HookFailed', 'down');
    await clock.advance(60_001);
    await events$.warning(instance, 'HookFailed', 'down');
    expect((await events()).map((event) => (event as { count?: number }).count)).toEqual([1, 1]);
  });

  it('creates a new Event when the one to update is gone', async () => {
    const events$ = recorder();
    await events$.warning(instance, 'HookFailed', 'down');
    const [first] = await events();
    await client.request('DELETE', resourcePath(EVENTS, 'shop', first?.metadata.name));
    await events$.warning(instance, 'HookFailed', 'down');
    const remaining = await events();
    expect(remaining.map(summary)).toEqual([
      {
        reason: 'HookFailed',
        message: 'down',
        type: 'Warning',
        count: 1,
        firstTimestamp: '2024-05-01T10:00:00Z',
        lastTimestamp: '2024-05-01T10:00:00Z',
      },
    ]);
    expect(remaining[0]?.metadata.name).not.toBe(first?.metadata.name);
  });

  it('serialises concurrent repeats into one Event', async () => {
    const events$ = recorder();
    await Promise.all([1, 2, 3, 4].map(() => events$.warning(instance, 'HookFailed', 'burst')));
    expect((await events()).map((event) => (event as { count?: number }).count)).toEqual([4]);
  });

  it('records Events of cluster-scoped objects in default', async () => {
    const registration = {
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: 'mailer', uid: 'u1' },
    };
    await recorder().warning(registration, 'StatusPathNotInSchema', 'status.x is not in the schema');
    const [event] = await events('default');
    expect(event).toMatchObject({
      metadata: { namespace: 'default' },
      involvedObject: {
        apiVersion: 'scoby.triggermesh.io/v1alpha1',
        kind: 'CRDRegistration',
        name: 'mailer',
        uid: 'u1',
      },
    });
  });

  it('never throws: a failed write is logged', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ component: 'scoby-controller', destination });
    server.faults.failNext({ resource: 'events' }, { code: 500, message: 'etcd is down' });
    await expect(recorder({ logger }).warning(instance, 'HookFailed', 'down')).resolves.toBeUndefined();
    expect(await events()).toEqual([]);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toMatchObject([
      {
        level: 'warn',
        msg: 'could not record an Event',
        object: 'Mailer shop/orders',
        event: { reason: 'HookFailed', type: 'Warning', message: 'down' },
        err: { message: 'etcd is down' },
      },
    ]);
  });
});

describe('EventRecorder write scope', () => {
  it("writes each Event in its emitter's scope, refused with the scope's other writes, queued or not", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ component: 'scoby-controller', destination });
    const fenced = new DynamicClient(server.kubeConfig(), {
      writeFence: { refusal: (scope) => (scope === 'a' ? 'registration a is not held here' : undefined) },
    });
    try {
      const events$ = recorder({ client: fenced, logger });
      await writeScopes.run('a', () => events$.warning(instance, 'HookFailed', 'first'));
      expect(await events()).toEqual([]);
      // The repeat waits behind the create of scope b, then writes its count in its own scope a.
      const fromB = writeScopes.run('b', () => events$.warning(instance, 'HookFailed', 'again'));
      const fromA = writeScopes.run('a', () => events$.warning(instance, 'HookFailed', 'again'));
      await Promise.all([fromB, fromA]);
      expect((await events()).map(summary)).toEqual([
        {
          reason: 'HookFailed',
          message: 'again',
          type: 'Warning',
          count: 1,
          firstTimestamp: '2024-05-01T10:00:00Z',
          lastTimestamp: '2024-05-01T10:00:00Z',
        },
      ]);
      const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toMatchObject([
        {
          msg: 'could not record an Event',
          event: { message: 'first' },
          err: { message: 'POST /api/v1/namespaces/shop/events refused: registration a is not held here' },
        },
        {
          msg: 'could not record an Event',
          event: { message: 'again' },
          err: {
            message: expect.stringMatching(
              /^PATCH \/api\/v1\/namespaces\/shop\/events\/orders\.[0-9a-f]+ refused: registration a is not held here$/,
            ) as string,
          },
        },
      ]);
    } finally {
      fenced.close();
    }
  });
});
