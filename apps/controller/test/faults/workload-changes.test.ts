/**
 * The fault bench's recovery gives Scoby REACTION_MS to act on a Deployment kube-controller-manager
 * changed, so kube-controller-manager's pace does not set Scoby's recovery (bench/faults/fault-run.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Violation } from '../../bench/chaos/invariants.ts';
import { ownSettledSince, REACTION_MS, WorkloadChanges } from '../../bench/faults/fault-run.ts';

const T = 1_000_000;
const waiting: Violation = {
  kind: 'lost-status',
  object: 'Widget2/w-1',
  detail: 'observedGeneration 1 of generation 1, Ready=Unknown UNKNOWN: ',
  workloads: ['bench/widget2-w-1'],
};
const versions = (rv: string, other = '7') =>
  new Map([
    ['bench/widget2-w-1', rv],
    ['bench/widget2-w-2', other],
  ]);

describe('WorkloadChanges', () => {
  it('takes a lost status whose Deployment changed less than REACTION_MS ago for a reaction under way', () => {
    const changes = new WorkloadChanges();
    changes.observe(versions('10'), T);
    changes.observe(versions('11'), T + 250);
    expect(changes.withReactions([waiting], T + 250)).toEqual([
      { ...waiting, awaits: 'workload-controllers' },
    ]);
    expect(changes.withReactions([waiting], T + 250 + REACTION_MS - 1)).toEqual([
      { ...waiting, awaits: 'workload-controllers' },
    ]);
    expect(changes.withReactions([waiting], T + 250 + REACTION_MS)).toEqual([waiting]);
  });

  it('takes the versions of the first check as old: their change may be long past', () => {
    const changes = new WorkloadChanges();
    changes.observe(versions('10'), T);
    expect(changes.withReactions([waiting], T)).toEqual([waiting]);
    changes.observe(versions('10'), T + 250);
    expect(changes.withReactions([waiting], T + 250)).toEqual([waiting]);
  });

  it('leaves alone what is no lost status, names no Deployment, or names one that did not change', () => {
    const changes = new WorkloadChanges();
    changes.observe(versions('10'), T);
    changes.observe(versions('10', '8'), T + 250);
    const stale: Violation = {
      kind: 'stale-child',
      object: 'Deployment bench/widget2-w-2',
      detail: 'not up to date',
    };
    const noWorkload: Violation = { ...waiting, object: 'Widget2/w-3', workloads: undefined };
    const unchanged: Violation = { ...waiting, object: 'Widget2/w-1' };
    expect(changes.withReactions([stale, noWorkload, unchanged], T + 300)).toEqual([
      stale,
      noWorkload,
      unchanged,
    ]);
  });

  it('ends the recovery when Scoby is done, not with kube-controller-manager’s last Deployment', () => {
    // Checks every 250 ms: w-1 pending at the end of the fault, done at +500; kube-controller-manager
    // then makes its Deployment available at +5,000 and Scoby writes Ready 300 ms later.
    const changes = new WorkloadChanges();
    const checks: Array<[number, string, Violation[]]> = [
      [T, '10', [waiting]],
      [T + 250, '10', [waiting]],
      [T + 500, '10', []],
      [T + 5_000, '11', [waiting]],
      [T + 5_250, '11', [waiting]],
      [T + 5_500, '11', []],
    ];
    let since: number | undefined;
    for (const [now, rv, violations] of checks) {
      changes.observe(versions(rv), now);
      since = ownSettledSince(since, changes.withReactions(violations, now), now);
    }
    expect(since).toBe(T + 500);
    // A reaction that takes longer than REACTION_MS is Scoby's again: the recovery ends after it.
    const slow = new WorkloadChanges();
    let slowSince: number | undefined;
    for (const [now, rv, violations] of [
      ...checks.slice(0, 5),
      [T + 7_500, '11', [waiting]],
      [T + 7_750, '11', []],
    ] as Array<[number, string, Violation[]]>) {
      slow.observe(versions(rv), now);
      slowSince = ownSettledSince(slowSince, slow.withReactions(violations, now), now);
    }
    expect(slowSince).toBe(T + 7_750);
  });
});
