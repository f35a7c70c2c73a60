/**
 * The fault bench's relist storm: more lists than broken watches for one informer. A fault that cuts
 * answers in flight is judged from its end; every other fault over its whole window, so a list loop
 * during a compaction still shows.
 */
import { describe, expect, it } from 'vitest';
import type { InformerActivity } from '../../bench/faults/audit-judge.ts';
import { relistStorms } from '../../bench/faults/fault-run.ts';
import { FAULTS } from '../../bench/faults/faults.ts';

const widgets = (lists: number, watches: number): InformerActivity => ({
  informer: 'system:serviceaccount:scoby-ha:replica-1 widget3s',
  lists,
  watches,
});

describe('relist storms', () => {
  it('are lists beyond one per broken watch', () => {
    expect(relistStorms({}, [widgets(1, 0), widgets(2, 2), widgets(3, 2)], [])).toEqual([widgets(3, 2)]);
  });

  it('are judged from the end of a fault that cuts answers in flight, and over the whole fault otherwise', () => {
    const whole = [widgets(3, 2)];
    const afterEnd = [widgets(1, 1)];
    expect(relistStorms({ cutsAnswers: true }, whole, afterEnd)).toEqual([]);
    expect(relistStorms({ cutsAnswers: true }, whole, [widgets(2, 1)])).toEqual([widgets(2, 1)]);
    expect(relistStorms({}, whole, afterEnd)).toEqual(whole);
  });

  it('are judged from the end only for the faults that cut connections', () => {
    expect(FAULTS.filter((fault) => fault.cutsAnswers === true).map((fault) => fault.name)).toEqual([
      'reset-peer',
      'black-hole',
      'limit-data',
      'mixed',
    ]);
  });
});
