/**
 * A controller's periodic resync (ResyncPolicy): every object is reconciled again one period after its
 * last reconcile ended well, within the jitter; never without a policy, not after an error (backoff
 * retries it) and not once the object is gone.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { Controller, resyncDelayMs, type ResyncPolicy } from '../../src/controller/controller.ts';
import { InformerFactory } from '../../src/informer/informer-factory.ts';
import type { ReconcileResult } from '../../src/queue/work-queue.ts';
import { deferred } from '../../src/testing/deferred.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const PERIOD_MS = 60_000;

let server: InMemoryApiServer;
let client: DynamicClient;
let factory: InformerFactory;
let controller: Controller | undefined;
let clock: ManualClock;

beforeEach(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
  factory = new InformerFactory({ lister: client });
  clock = new ManualClock(1_000_000);
});
afterEach(async () => {
  await controller?.stop();
  controller = undefined;
  factory.stopAll();
  client.close();
  await server.stop();
});

/** Names reconciled, in order; `answer` decides each reconcile's result. */
async function started(
  resync: ResyncPolicy | undefined,
  answer: (name: string) => ReconcileResult | Promise<ReconcileResult> = () => undefined,
): Promise<string[]> {
  const reconciled: string[] = [];
  controller = new Controller({
    name: 'configmaps',
    factory,
    for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
    reconcile: (key) => {
      reconciled.push(key.name);
      return answer(key.name);
    },
    ...(resync === undefined ? {} : { resync }),
    clock,
  });
  expect(await controller.waitForSync(5_000)).toBe(true);
  return reconciled;
}

async function createConfigMap(name: string): Promise<void> {
  await client.create(CONFIGMAPS, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: 'default', name },
  });
}

describe('Controller resync', () => {
  it('reconciles each object again one period after its last reconcile, and again after that', async () => {
    const reconciled = await started({ periodMs: PERIOD_MS, random: () => 0.5 });
    await createConfigMap('settings');
    await eventually(() => expect(reconciled).toEqual(['settings']));
    await clock.advance(PERIOD_MS - 1);
    expect(reconciled).toEqual(['settings']);
    await clock.advance(1);
    await eventually(() => expect(reconciled).toEqual(['settings', 'settings']));
    await clock.advance(PERIOD_MS);
    await eventually(() => expect(reconciled).toEqual(['settings', 'settings', 'settings']));
  });

  it('never reconciles periodically without a policy', async () => {
    const reconciled = await started(undefined);
    await createConfigMap('settings');
    await eventually(() => expect(reconciled).toEqual(['settings']));
    await clock.advance(100 * PERIOD_MS);
    expect(reconciled).toEqual(['settings']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('leaves a failed reconcile to its backoff and a terminal one to the next event', async () => {
    const reconciled = await started({ periodMs: PERIOD_MS, random: () => 0.5 }, (name) =>
      name === 'broken' ? { error: new Error('no') } : { terminal: new Error('never') },
    );
    await createConfigMap('parked');
    await eventually(() => expect(reconciled).toEqual(['parked']));
    await clock.advance(10 * PERIOD_MS);
    expect(reconciled).toEqual(['parked']);
    await createConfigMap('broken');
    await eventually(() => expect(reconciled).toEqual(['parked', 'broken']));
    // Backoff: 5 ms, 10 ms, 20 ms … — the retries come from it, none from a resync period.
    await clock.advance(5);
    await eventually(() => expect(reconciled.filter((name) => name === 'broken')).toHaveLength(2));
  });

  it('stops once the object is gone', async () => {
    const reconciled = await started({ periodMs: PERIOD_MS, random: () => 0.5 });
    await createConfigMap('settings');
    await eventually(() => expect(reconciled).toEqual(['settings']));
    await client.delete(CONFIGMAPS, 'default', 'settings');
    // The delete event reconciles the key (the object is gone), which schedules nothing.
    await eventually(() => expect(reconciled).toEqual(['settings', 'settings']));
    await clock.advance(10 * PERIOD_MS);
    expect(reconciled).toEqual(['settings', 'settings']);
  });

  it('takes a new policy, or none, from the end of the next reconcile', async () => {
    const reconciled = await started({ periodMs: PERIOD_MS, random: () => 0.5 });
    await createConfigMap('settings');
    await eventually(() => expect(reconciled).toHaveLength(1));
    controller!.setResync({ periodMs: 2 * PERIOD_MS, random: () => 0.5 });
    await clock.advance(PERIOD_MS);
    await eventually(() => expect(reconciled).toHaveLength(2));
    await clock.advance(PERIOD_MS);
    expect(reconciled).toHaveLength(2);
    await clock.advance(PERIOD_MS);
    await eventually(() => expect(reconciled).toHaveLength(3));
    controller!.setResync(undefined);
    await clock.advance(2 * PERIOD_MS);
    await eventually(() => expect(reconciled).toHaveLength(4));
    await clock.advance(10 * PERIOD_MS);
    expect(reconciled).toHaveLength(4);
  });

  it('waits behind a change: a resync due while the slot is busy runs after what was edited meanwhile', async () => {
    const gate = deferred();
    const reconciled = await started({ periodMs: PERIOD_MS, random: () => 0.5 }, (name) =>
      name === 'blocker' && !reconciled.includes('b') ? gate.promise.then(() => undefined) : undefined,
    );
    await createConfigMap('a');
    await eventually(() => expect(reconciled).toEqual(['a']));
    await clock.advance(PERIOD_MS / 2);
    await createConfigMap('blocker');
    await eventually(() => expect(reconciled).toEqual(['a', 'blocker']));
    // a's resync comes due while blocker holds the only slot, then b is created.
    await clock.advance(PERIOD_MS / 2);
    await createConfigMap('b');
    await eventually(() => expect(controller!.length).toBe(2));
    gate.resolve();
    await eventually(() => expect(reconciled).toEqual(['a', 'blocker', 'b', 'a']));
  });
});

describe('resyncDelayMs', () => {
  it('moves the period by up to ±10 % by default, and by the jitter given', () => {
    expect(resyncDelayMs({ periodMs: 1_000, random: () => 0 })).toBe(900);
    expect(resyncDelayMs({ periodMs: 1_000, random: () => 0.5 })).toBe(1_000);
    expect(resyncDelayMs({ periodMs: 1_000, random: () => 0.999_999 })).toBe(1_100);
    expect(resyncDelayMs({ periodMs: 1_000, jitter: 0, random: () => 0 })).toBe(1_000);
    expect(resyncDelayMs({ periodMs: 1_000, jitter: 0.5, random: () => 0 })).toBe(500);
  });

  it('spreads delays over the whole band', () => {
    const delays = Array.from({ length: 2_000 }, () => resyncDelayMs({ periodMs: 10_000 }));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(9_000);
    expect(Math.max(...delays)).toBeLessThanOrEqual(11_000);
    expect(Math.min(...delays)).toBeLessThan(9_200);
    expect(Math.max(...delays)).toBeGreaterThan(10_800);
  });
});
