/**
 * The soak's last line on convergence: a soak that ends with something left must say what and whose,
 * Scoby's own part or kube-controller-manager's backlog, as the fault bench does for its recovery.
 */
import { describe, expect, it } from 'vitest';
import type { Violation } from '../../bench/chaos/invariants.ts';
import { ownSettledSince } from '../../bench/faults/fault-run.ts';
import { convergence } from '../../bench/faults/soak.ts';

const STOPPED = 1_000_000;
const lostStatus: Violation = {
  kind: 'lost-status',
  object: 'Mailer/m-1',
  detail: 'observedGeneration 3 of generation 4, Ready=False',
};
const rollingOut: Violation = { ...lostStatus, object: 'Mailer/m-2', awaits: 'workload-controllers' };

describe('the soak on convergence', () => {
  it('times Scoby apart from kube-controller-manager when everything settled', () => {
    expect(convergence([], STOPPED, STOPPED + 2_500, STOPPED + 40_000)).toBe(
      "yes: Scoby's own after 2.5 s, everything after 40.0 s (since the churn stopped)",
    );
    expect(convergence([], STOPPED, STOPPED + 1_000, STOPPED + 1_000)).toBe(
      "yes: Scoby's own after 1.0 s, everything after 1.0 s (since the churn stopped)",
    );
  });

  it('says how much of what is left is Scoby’s own', () => {
    expect(convergence([rollingOut], STOPPED, STOPPED + 3_000, STOPPED + 91_000)).toBe(
      "NO after 91.0 s: 1 left, 0 Scoby's own and 1 awaiting kube-controller-manager; Scoby's own after 3.0 s",
    );
    expect(convergence([lostStatus, rollingOut], STOPPED, undefined, STOPPED + 91_000)).toBe(
      "NO after 91.0 s: 2 left, 1 Scoby's own and 1 awaiting kube-controller-manager; Scoby's own never settled",
    );
  });
});

describe("the moment Scoby's own work was done", () => {
  it("is the start of the last stretch without any of it, kube-controller-manager's backlog aside", () => {
    let since: number | undefined;
    const checks: Array<[number, Violation[]]> = [
      [1_000, [lostStatus]],
      [2_000, [rollingOut]],
      [3_000, [rollingOut]],
      // The Deployment turned available: its instance's status is Scoby's to write again.
      [4_000, [lostStatus]],
      [5_000, []],
      [6_000, []],
    ];
    const seen = checks.map(([now, violations]) => (since = ownSettledSince(since, violations, now)));
    expect(seen).toEqual([undefined, 2_000, 2_000, undefined, 5_000, 5_000]);
  });
});
