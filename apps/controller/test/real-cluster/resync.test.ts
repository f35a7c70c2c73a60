/**
 * spec.resyncPeriod (docs/spec/registration.md §6.9) on the real control plane, the controller as
 * Scoby's ServiceAccount under the shipped RBAC, PT30S divided by 6 (the in-memory test divides by
 * 30; the real period took 130 s of CI for this file): three periods call the hook of a Ready
 * instance and send no write, a parked instance is not called, and what only the hook knows is
 * written at the next resync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProcess } from '../../src/index.ts';
import { startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import {
  GROUP,
  NAMESPACE,
  PLURAL,
  registerLanterns,
  RESYNC_PERIOD_MS,
  resyncWindow,
  worldHook,
  type HookWorld,
} from '../support/resync-scenario.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, REAL_PATIENCE_MS, startRealController } from './support/real-cluster.ts';

const DIVISOR = 6;
const PERIOD_MS = RESYNC_PERIOD_MS / DIVISOR;
const PERIODS = 3;

const admin = realClusterAdmin();
let controller: RunningProcess;
let hook: ScriptedHook;
const world: HookWorld = { colour: 'amber', refused: new Set() };

beforeAll(async () => {
  hook = await startScriptedHook(worldHook(world));
  await admin.apply(registeredKindRole(GROUP, PLURAL));
  controller = startRealController({ workingNamespaces: [NAMESPACE], resyncPeriodDivisor: DIVISOR });
  await registerLanterns(admin, hook);
});
afterAll(async () => {
  await controller?.stop();
  await hook?.close();
  await admin.stop();
});

describe('resyncPeriod on the real control plane', () => {
  it('reconciles every period with no write in the steady state, and brings what only the hook knows', async () => {
    const figures = await resyncWindow(admin, controller, hook, world, {
      periodMs: PERIOD_MS,
      periods: PERIODS,
      timeoutMs: REAL_PATIENCE_MS,
    });
    console.info(`resync window of ${PERIODS} periods on the real control plane: ${JSON.stringify(figures)}`);
    // Periods of 4.5 to 5.5 s over 16 s.
    expect(figures.steadyCalls).toBeGreaterThanOrEqual(PERIODS - 1);
    expect(figures.steadyCalls).toBeLessThanOrEqual(PERIODS + 1);
    expect(figures.parkedCalls).toBe(0);
    // No write of this registration: its instances keep their versions, its children their uids,
    // and the process sends no PUT, PATCH or DELETE. POSTs are left out: on the control plane the
    // suite's files share, the process also sees other files' cluster-scoped registrations and
    // asks access reviews and sends Events for them (CI counted 4 in one window).
    expect(figures.written.after).toBe(figures.written.before);
    const writes = Object.entries(figures.requests).filter(([method]) => !['GET', 'POST'].includes(method));
    expect(writes).toEqual([]);
  });
});
