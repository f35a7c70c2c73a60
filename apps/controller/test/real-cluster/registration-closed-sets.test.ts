/** The CRDRegistration CRD refuses values outside the closed sets of docs/spec/registration.md §4 (real control plane). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OUT_OF_RANGE, OUT_OF_RANGE_CAUSES, OUT_OF_SET_CAUSES, refusal } from '../support/closed-sets.ts';
import { startRealCluster, type RealCluster } from './support/real-cluster.ts';

let cluster: RealCluster;
beforeAll(() => {
  cluster = startRealCluster();
});
afterAll(() => cluster?.stop());

it('refuses a registration with an unknown hook version, capability and built-in function at creation (422)', async () => {
  expect(await refusal(cluster)).toEqual({ code: 422, causes: OUT_OF_SET_CAUSES });
});

it('refuses a registration with a required field missing and numbers out of range, every cause at once (422)', async () => {
  expect(await refusal(cluster, OUT_OF_RANGE)).toEqual({ code: 422, causes: OUT_OF_RANGE_CAUSES });
});
