/**
 * spec.resyncPeriod (docs/spec/registration.md §6.9) on the in-memory server, the period divided by 30
 * (PT30S runs every second): every period calls the hook and writes nothing while nothing changed,
 * a change only the hook knows is written at the next resync, a parked instance stays parked, and a
 * registration without resyncPeriod reconciles nothing periodically.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { hookedRegistration } from '../support/hooks-fixtures.ts';
import { startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import {
  NAMESPACE,
  registerLanterns,
  RESYNC_PERIOD_MS,
  resyncWindow,
  worldHook,
  type HookWorld,
} from '../support/resync-scenario.ts';
import { conditionOf, registrationTarget, waitForCondition } from '../support/scoby.ts';

const DIVISOR = 30;
const PERIOD_MS = RESYNC_PERIOD_MS / DIVISOR;
const PERIODS = 4;

let cluster: TestCluster;
let hook: ScriptedHook;
const world: HookWorld = { colour: 'amber', refused: new Set() };

beforeAll(async () => {
  cluster = await startTestCluster({ limits: { resyncPeriodDivisor: DIVISOR } });
  hook = await startScriptedHook(worldHook(world));
  await registerLanterns(cluster, hook);
  // The same hook for a registration without resyncPeriod.
  await cluster.apply(crdFor({ group: 'candles.example.com', kind: 'Candle', plural: 'candles' }));
  await cluster.apply(
    hookedRegistration('candles', 'candles.candles.example.com', {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
    }),
  );
  await waitForCondition(cluster, registrationTarget('candles'), 'Ready', 'True');
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

describe('resyncPeriod', () => {
  it('reconciles every period with no write in the steady state, brings what only the hook knows, leaves parked instances alone', async () => {
    await cluster.apply({
      apiVersion: 'candles.example.com/v1',
      kind: 'Candle',
      metadata: { name: 'wick', namespace: NAMESPACE },
      spec: {},
    });
    await cluster.waitFor('the candle Ready', async () => {
      const candle = await cluster.get('candles.example.com/v1', 'Candle', NAMESPACE, 'wick');
      return conditionOf(candle, 'Ready')?.status === 'True';
    });
    const candleCalls = hook.callsFor('pre-reconcile', 'wick').length;

    const logStart = cluster.server.requestLog.entries().length;
    const figures = await resyncWindow(cluster, cluster.controller, hook, world, {
      periodMs: PERIOD_MS,
      periods: PERIODS,
    });
    console.info(`resync window of ${PERIODS} periods on the in-memory server: ${JSON.stringify(figures)}`);
    // Each period is 1 s ± 10 %: over 4.2 s, from 3 (periods of 1.1 s after one that just ran) to 5.
    expect(figures.steadyCalls).toBeGreaterThanOrEqual(PERIODS - 1);
    expect(figures.steadyCalls).toBeLessThanOrEqual(PERIODS + 1);
    expect(figures.parkedCalls).toBe(0);
    // Not one API request, read or write: the hook calls are all a resync costs.
    expect(figures.requests).toEqual({});
    // The candle's registration has no resyncPeriod: its hook was not called again meanwhile.
    expect(hook.callsFor('pre-reconcile', 'wick')).toHaveLength(candleCalls);
    // The new colour was one status write of the lantern, nothing else.
    const writes = cluster.server.requestLog
      .entries()
      .slice(logStart)
      .filter((entry) => entry.method !== 'GET');
    expect(writes.map(({ method, path }) => `${method} ${path}`)).toContain(
      `PATCH /apis/lamps.example.com/v1/namespaces/${NAMESPACE}/lanterns/lit/status`,
    );
  });
});
