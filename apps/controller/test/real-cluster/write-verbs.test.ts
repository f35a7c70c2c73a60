/**
 * docs/spec/registration.md §7 on the real control plane, under kube-apiserver's RBAC: the original
 * Scoby's documented role (update, no patch) works unchanged with status and finalizers PUT, the
 * shipped role with merge patches, and a registration without a finalize hook needs no write verb
 * on its resource; in each the instance reaches Ready with what the hook and statusConfiguration
 * wrote kept, and no write of status or finalizers is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProcess } from '../../src/index.ts';
import type { ScriptedHook } from '../support/hooks-server.ts';
import {
  crateRole,
  cratesUnderRole,
  missingStatusWrite,
  PRIMER_CASE,
  registerCrates,
  startQuotaHook,
  WRITE_VERBS_CASES,
} from '../support/write-verbs-scenario.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const admin = realClusterAdmin();
let controller: RunningProcess;
let hook: ScriptedHook;

beforeAll(async () => {
  hook = await startQuotaHook();
  for (const testCase of [...WRITE_VERBS_CASES, PRIMER_CASE]) await admin.apply(crateRole(testCase));
  controller = startRealController();
});
afterAll(async () => {
  await controller?.stop();
  await hook?.close();
  await admin.stop();
});

describe.each(WRITE_VERBS_CASES)(
  'on the real control plane, under the $role role (finalize hook: $finalize)',
  (testCase) => {
    it('starts, names its verbs, and writes status and finalizers keeping what the hook and statusConfiguration wrote', async () => {
      await registerCrates(admin, testCase, hook);
      await cratesUnderRole(admin, testCase, hook);
    });
  },
);

describe("on the real control plane, under the original Scoby primer's role", () => {
  it('is MissingPermissions naming patch or update on the status', async () => {
    await missingStatusWrite(admin, hook);
  });
});

describe('the requests of the controller', () => {
  it('never had a write of status or finalizers refused (no 403 on PUT or PATCH)', async () => {
    const metrics = await controller.metrics.registry.getSingleMetricAsString('rest_client_requests_total');
    expect(metrics).toMatch(/code="200",method="PUT"/);
    // POSTs are left out: this controller watches every namespace of the shared control plane, and
    // what it creates there for other files' objects (their Events) may be refused with 403 while
    // their namespaces terminate (13 POSTs in one CI run; none when this file runs alone). Status
    // and finalizers are written with PUT or PATCH only.
    expect(metrics).not.toMatch(/code="403",method="(PUT|PATCH)"/);
  });
});
