/**
 * The differential harness (test/differential) on a fixed seed set: generated request sequences sent in
 * the same order to a fresh in-memory server and to the reference, kube-apiserver when the suite runs
 * against a real cluster (one control plane, a namespace per sequence), otherwise another in-memory
 * server (the harness checked on itself). A difference not in accepted-differences.json fails with the
 * shrunk request sequence; the reach of the requests is printed and checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Coverage, EXPECTED_PAIRS } from '../differential/coverage.ts';
import {
  checkDifferential,
  compareSequence,
  freshInMemory,
  sharedCluster,
  type Reference,
} from '../differential/differential.ts';
import { FIXED_CASES } from '../differential/fixed-cases.ts';
import { MISTAKES } from '../differential/model.ts';
import { connect, type Target } from './harness.ts';

/** The fixed seeds CI runs: a few minutes against a real control plane. */
const SEEDS = [1, 2, 3, 4];
const RUNS_PER_SEED = 16;
const MAX_LENGTH = 30;

let target: Target;
let reference: Reference;

beforeAll(async () => {
  target = await connect();
  reference = target.server === undefined ? sharedCluster(target) : freshInMemory();
});
afterAll(() => target.stop());

describe('differential testing against the reference server', () => {
  it('answers the twenty fixed requests as the reference does, with kube-apiserver’s codes', async () => {
    const codes: number[] = [];
    const result = await compareSequence(
      FIXED_CASES.map((fixed) => fixed.step),
      {
        reference,
        aroundSubject: async (send) => {
          const reply = await send();
          codes.push((reply as { status: number }).status);
          return reply;
        },
      },
      'fixed',
    );
    expect(result.differences).toEqual([]);
    expect(result.compared).toBe(20);
    expect(codes).toEqual(FIXED_CASES.map((fixed) => fixed.code));
  }, 120_000);

  it('finds no unlisted difference on the fixed seeds, and reaches every verb, resource and mistake', async () => {
    const coverage = new Coverage();
    const started = Date.now();
    let requests = 0;
    let accepted = 0;
    let skipped = 0;
    for (const seed of SEEDS) {
      const figures = await checkDifferential({
        seed,
        runs: RUNS_PER_SEED,
        maxLength: MAX_LENGTH,
        reference,
        coverage,
      });
      requests += figures.requests;
      accepted += figures.acceptedDifferences;
      skipped += figures.skipped;
    }
    console.log(
      `${requests} requests compared against ${reference.label} in ${Math.round((Date.now() - started) / 1000)} s, ${accepted} accepted differences met (${skipped} requests after them not sent)\n${coverage.table()}`,
    );
    expect(requests).toBeGreaterThan(250);
    const { pairs, mistakes } = coverage.summary();
    expect(EXPECTED_PAIRS.filter((pair) => !pairs.has(pair))).toEqual([]);
    expect(MISTAKES.filter((mistake) => !mistakes.has(mistake))).toEqual([]);
  }, 600_000);
});
