/**
 * The fault bench's relist storm: more lists than broken watches for one informer. A fault that cuts
 * answers in flight is judged from its end; every other fault over its whole window, so a list loop
 * during a compaction still shows.
 */
import { describe, expect, it } from 'vitest';
import type { InformerActivity } from '../../bench/faults/audit-judge.ts';
import { relistStorms } from '../../bench/faults/fault-run.ts';
import { FAULTS } from '../../bench/faults/faults.ts';
import {
  informerRegistrations,
  informerStarts,
  leaseEvents,
  leaseLines,
} from '../../bench/faults/lease-hand-overs.ts';
import type { ReplicaProcess } from '../real-cluster/support/replica-process.ts';

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

describe("informers started anew with their registration's Lease", () => {
  const user = (name: string) => `system:serviceaccount:scoby-ha:${name}`;
  const replica = (name: string, logs: Array<{ time: number; msg: string; [field: string]: unknown }>) => ({
    name,
    user: user(name),
    // The controller's logger writes ISO times.
    current: {
      logs: logs.map((record) => ({ level: 30, ...record, time: new Date(record.time).toISOString() })),
    } as unknown as ReplicaProcess,
  });
  const replicas = [
    replica('replica-2', [
      { time: 900, msg: 'acquired the Lease of registration "widget1"', registration: 'widget1' },
      {
        time: 1_500,
        msg: 'lost the Lease of registration "widget5"',
        registration: 'widget5',
        reason: 'the Lease was not renewed within the renew deadline of 10000 ms',
      },
      { time: 1_600, msg: 'reconcile failed', registration: 'widget5' },
      { time: 4_000, msg: 'acquired the Lease of registration "widget5"', registration: 'widget5' },
    ]),
    replica('replica-0', [
      {
        time: 2_000,
        msg: 'handing over registration "widget3"',
        registration: 'widget3',
        reason: 'shutting down',
      },
    ]),
  ];
  const resources = new Map([
    ['widget3s', 'widget3'],
    ['widget5s', 'widget5'],
  ]);
  const children = (name: string, ...registrations: string[]) =>
    `${user(name)} deployments [app.kubernetes.io/managed-by=scoby-controller,app.kubernetes.io/name in (${registrations.join(',')})]`;

  it("are read from each replica's log, in time order, within the window", () => {
    const events = leaseEvents(replicas, 1_000, 5_000);
    expect(leaseLines(events, 1_000)).toEqual([
      'replica-2 +0.5 s lost the Lease of registration "widget5": the Lease was not renewed within the renew deadline of 10000 ms',
      'replica-0 +1.0 s handing over registration "widget3": shutting down',
      'replica-2 +3.0 s acquired the Lease of registration "widget5"',
    ]);
    expect(events.map(({ user: who, registration, kind }) => `${who} ${kind} ${registration}`)).toEqual([
      `${user('replica-2')} lost widget5`,
      `${user('replica-0')} handing over widget3`,
      `${user('replica-2')} acquired widget5`,
    ]);
  });

  it("serve the registrations of their instances' resource and those their child selector names", () => {
    expect(informerRegistrations(`${user('replica-2')} widget5s`, resources)).toEqual(['widget5']);
    expect(informerRegistrations(children('replica-2', 'widget3', 'widget5'), resources)).toEqual([
      'widget3',
      'widget5',
    ]);
    expect(informerRegistrations(`${user('replica-2')} leases in scoby-ha`, resources)).toEqual([]);
  });

  it('count once per acquisition by their own replica of a registration they serve', () => {
    const events = leaseEvents(replicas, 0, 5_000);
    expect(informerStarts(`${user('replica-2')} widget5s`, events, resources)).toBe(1);
    expect(informerStarts(children('replica-2', 'widget1', 'widget5'), events, resources)).toBe(2);
    expect(informerStarts(`${user('replica-0')} widget5s`, events, resources)).toBe(0);
    expect(informerStarts(`${user('replica-2')} widget3s`, events, resources)).toBe(0);
  });

  it('are no relist storm: each start allows its own list', () => {
    const widget5s = { informer: `${user('replica-2')} widget5s`, lists: 2, watches: 1 };
    expect(relistStorms({ cutsAnswers: true }, [], [widget5s])).toEqual([widget5s]);
    expect(relistStorms({ cutsAnswers: true }, [], [widget5s], () => 1)).toEqual([]);
    expect(relistStorms({ cutsAnswers: true }, [], [{ ...widget5s, lists: 3 }], () => 1)).toEqual([
      { ...widget5s, lists: 3 },
    ]);
    const windows: string[] = [];
    relistStorms({}, [widget5s], [], (_, window) => (windows.push(window), 0));
    relistStorms({ cutsAnswers: true }, [], [widget5s], (_, window) => (windows.push(window), 0));
    expect(windows).toEqual(['whole', 'afterEnd']);
  });
});
