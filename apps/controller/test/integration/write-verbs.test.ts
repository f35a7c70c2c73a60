/**
 * The verbs a registration needs and no more (docs/spec/registration.md §7), on the in-memory server,
 * whose denials refuse the requests they match as kube-apiserver's RBAC would: under the original
 * Scoby's role (update, no patch) status and finalizers are PUT, under the shipped role they are
 * merge patches, and a registration without a finalize hook needs no write verb on the resource.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import type { ScriptedHook } from '../support/hooks-server.ts';
import {
  cratesUnderRole,
  missingStatusWrite,
  PLURAL,
  PRIMER_CASE,
  refusedVerbs,
  registerCrates,
  startQuotaHook,
  WRITE_VERBS_CASES,
  type WriteVerbsCase,
} from '../support/write-verbs-scenario.ts';

const CONTROLLER = 'scoby-controller';
let cluster: TestCluster;
let hook: ScriptedHook;

beforeAll(async () => {
  cluster = await startTestCluster({ user: CONTROLLER });
  hook = await startQuotaHook();
});
afterAll(async () => {
  await cluster.stop();
  await hook.close();
});

/** `METHOD code` of the controller's writes to a case's crates (no reads), in order, without repeats. */
function controllerWrites(group: string): string[] {
  const writes = cluster.server.requestLog
    .entries()
    .filter(
      (entry) =>
        entry.user === CONTROLLER &&
        entry.path.startsWith(`/apis/${group}/`) &&
        entry.path.includes(`/${PLURAL}/`) &&
        ['PUT', 'PATCH'].includes(entry.method),
    )
    .map((entry) => `${entry.method} ${entry.path.endsWith('/status') ? 'status' : 'object'} ${entry.code}`);
  return [...new Set(writes)].sort();
}

/** The case's role, as denials of the verbs it does not grant (for the controller's user only). */
function grantOnly(testCase: WriteVerbsCase): void {
  for (const refused of refusedVerbs(testCase)) {
    cluster.server.authorization.deny({
      user: CONTROLLER,
      group: testCase.group,
      resource: PLURAL,
      ...refused,
    });
  }
}

describe.each(WRITE_VERBS_CASES)('under the $role role (finalize hook: $finalize)', (testCase) => {
  it('starts, names its verbs, and writes status and finalizers keeping what the hook and statusConfiguration wrote', async () => {
    grantOnly(testCase);
    await registerCrates(cluster, testCase, hook);
    await cratesUnderRole(cluster, testCase, hook);
    const method = (verb: string | undefined) => (verb === 'update' ? 'PUT' : 'PATCH');
    const expected = [
      `${method(testCase.writeVerbs.status)} status 200`,
      ...(testCase.finalize ? [`${method(testCase.writeVerbs.finalizers)} object 200`] : []),
    ];
    // Nothing refused (no 403), no other verb tried; 409s of a PUT built from a stale read are retried.
    expect(controllerWrites(testCase.group).filter((write) => !write.endsWith(' 409'))).toEqual(
      expected.sort(),
    );
  });
});

describe('a registration whose role grants no write on status (the original Scoby primer)', () => {
  it('is MissingPermissions naming patch or update on the status', async () => {
    grantOnly(PRIMER_CASE);
    await missingStatusWrite(cluster, hook);
  });
});
