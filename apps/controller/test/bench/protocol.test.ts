/** The bench protocol's accounting (bench/protocol): who used the CPU during a run, and the pinned setup. */
import { describe, expect, it } from 'vitest';
import { CpuLedger, formatInterference, interferenceBetween } from '../../bench/protocol/cpu-ledger.ts';
import {
  ancestorsOf,
  parseMachineTicks,
  parseProcessStat,
  type ProcessStat,
  treeOf,
} from '../../bench/protocol/proc.ts';
import { imageNodeVersion, medianAndSpread } from '../../bench/protocol/setup.ts';

const stat = (pid: number, parent: number, cpuTicks: number, startTicks = 0): ProcessStat => ({
  pid,
  parent,
  cpuTicks,
  startTicks,
  nice: 0,
});

describe('/proc as data', () => {
  it('reads parent, CPU ticks, nice and start time of a process whose name holds spaces and parentheses', () => {
    const text =
      '4242 (node (bench) x) S 4200 4242 4200 0 -1 4194560 100 0 0 0 150 25 0 0 20 5 11 0 987654 1000 200';
    expect(parseProcessStat(4242, text)).toEqual({
      pid: 4242,
      parent: 4200,
      cpuTicks: 175,
      nice: 5,
      startTicks: 987654,
    });
  });

  it('reads the busy and stolen ticks of the machine', () => {
    const text = 'cpu  100 5 50 9000 30 7 8 40 0 0\ncpu0 50 2 25 4500 15 3 4 20 0 0\n';
    expect(parseMachineTicks(text)).toEqual({ busy: 100 + 5 + 50 + 7 + 8 + 40, steal: 40 });
  });

  it('finds the descendants of a root and the chain of its parents', () => {
    const processes = [
      stat(1, 0, 0),
      stat(10, 1, 0),
      stat(20, 10, 0),
      stat(21, 20, 0),
      stat(22, 21, 0),
      stat(30, 1, 0),
    ];
    expect([...treeOf(processes, [20])].sort()).toEqual([20, 21, 22]);
    expect(ancestorsOf(processes, 20)).toEqual([10, 1]);
  });
});

describe('CpuLedger', () => {
  it("charges each process's ticks between scans to the bench's tree (its parents included) or to others", () => {
    const ledger = new CpuLedger([20]);
    const scan = (processes: ProcessStat[], busy: number, steal: number, uptimeTicks: number) =>
      ledger.observe({ processes, machine: { busy, steal }, uptimeTicks });
    // 1 init, 10 the shell, 20 the bench, 21 its child; 30 and 31 other work.
    scan(
      [stat(1, 0, 500), stat(10, 1, 40), stat(20, 10, 1_000), stat(21, 20, 300), stat(30, 1, 7_000)],
      10_000,
      50,
      100,
    );
    scan(
      [
        stat(1, 0, 501),
        stat(10, 1, 41),
        stat(20, 10, 1_100),
        stat(21, 20, 350),
        stat(22, 21, 20, 150),
        stat(30, 1, 7_030),
        // Started after the first scan: all its ticks are others'.
        stat(31, 1, 12, 120),
        // Started before the first scan but unseen (a reused pid would look like this): not charged.
        stat(32, 1, 9_000, 50),
      ],
      10_300,
      55,
      200,
    );
    // init and the shell started the bench: theirs is the bench's.
    expect(ledger.totals).toEqual({ tree: 1 + 1 + 100 + 50 + 20, foreign: 30 + 12, steal: 5, busy: 300 });
  });

  it('marks a window noisy when others took more than 10 % of a core', () => {
    const before = { tree: 0, foreign: 0, steal: 0, busy: 0 };
    const quiet = interferenceBetween(
      before,
      { tree: 9_000, foreign: 900, steal: 100, busy: 10_100 },
      100,
      100,
    );
    expect(quiet).toEqual({
      seconds: 100,
      foreignCpuSeconds: 9,
      stealSeconds: 1,
      unchargedSeconds: 1,
      shareOfCore: 0.1,
      noisy: false,
    });
    const noisy = interferenceBetween(before, { tree: 0, foreign: 1_001, steal: 0, busy: 1_001 }, 100, 100);
    expect(noisy.noisy).toBe(true);
    expect(formatInterference(noisy)).toBe(
      'foreign CPU 10.0 s + steal 0.0 s over 100 s = 10.0 % of a core NOISY (over 10 %: never quote this run); 0.0 s busy uncharged',
    );
  });
});

describe('the pinned setup', () => {
  it("takes the image's Node.js release from the Dockerfile", () => {
    expect(imageNodeVersion('# base\nARG NODE_IMAGE=node:24.21.0-slim\nFROM ${NODE_IMAGE}\n')).toBe(
      '24.21.0',
    );
    expect(() => imageNodeVersion('FROM node\n')).toThrow(
      'the Dockerfile names no NODE_IMAGE=node:<version>',
    );
  });

  it('prints the median and the spread of the rounds', () => {
    expect(medianAndSpread([3, 1, 2])).toBe('2.00 (1.00–3.00)');
    expect(medianAndSpread([4, 1, 2, 3], 1)).toBe('2.5 (1.0–4.0)');
    expect(medianAndSpread([7])).toBe('7.00 (one round)');
  });
});
