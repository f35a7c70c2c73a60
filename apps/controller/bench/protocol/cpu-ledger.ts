/**
 * Who used the machine's CPU while a bench ran: the bench's own process tree (its descendants, and
 * the chain of its parents that started it: npm, nx, tsx, the shell), every other process (foreign),
 * and the hypervisor (steal), from successive scans of /proc (proc.ts). The load average
 * cannot say this: it counts the control plane's own runnable threads as much as anyone else's.
 *
 * A process is charged the ticks it used between two scans, to the side it was on at the later one; a
 * process first seen in a scan is charged all its ticks if it started after the ledger's first scan.
 * A foreign process that starts and exits between two scans is missed: `busy` less the rest bounds
 * what was missed (with the kernel's own threads' and interrupts' time).
 */
import type { MachineTicks, ProcessStat } from './proc.ts';
import { ancestorsOf, treeOf } from './proc.ts';

export interface ProcScan {
  processes: readonly ProcessStat[];
  machine: MachineTicks;
  /** Ticks since boot at the scan (/proc/uptime). */
  uptimeTicks: number;
}

export interface CpuTotals {
  /** Ticks of the processes of the bench's tree. */
  tree: number;
  /** Ticks of every other process. */
  foreign: number;
  steal: number;
  /** The machine's busy ticks, steal included. */
  busy: number;
}

export class CpuLedger {
  readonly #roots: readonly number[];
  readonly #seen = new Map<number, { cpuTicks: number; startTicks: number }>();
  #firstUptimeTicks: number | undefined;
  #lastMachine: MachineTicks | undefined;
  readonly #totals: CpuTotals = { tree: 0, foreign: 0, steal: 0, busy: 0 };

  constructor(roots: readonly number[]) {
    this.#roots = roots;
  }

  /** Since the first scan. */
  get totals(): CpuTotals {
    return { ...this.#totals };
  }

  observe(scan: ProcScan): void {
    const first = this.#firstUptimeTicks === undefined;
    this.#firstUptimeTicks ??= scan.uptimeTicks;
    const tree = treeOf(scan.processes, this.#roots);
    for (const root of this.#roots) for (const pid of ancestorsOf(scan.processes, root)) tree.add(pid);
    const live = new Set<number>();
    for (const { pid, cpuTicks, startTicks } of scan.processes) {
      live.add(pid);
      const before = this.#seen.get(pid);
      this.#seen.set(pid, { cpuTicks, startTicks });
      if (first) continue;
      const samePid = before !== undefined && before.startTicks === startTicks;
      const used = samePid ? cpuTicks - before.cpuTicks : startTicks >= this.#firstUptimeTicks ? cpuTicks : 0;
      if (tree.has(pid)) this.#totals.tree += used;
      else this.#totals.foreign += used;
    }
    for (const pid of [...this.#seen.keys()]) if (!live.has(pid)) this.#seen.delete(pid);
    if (this.#lastMachine !== undefined) {
      this.#totals.busy += scan.machine.busy - this.#lastMachine.busy;
      this.#totals.steal += scan.machine.steal - this.#lastMachine.steal;
    }
    this.#lastMachine = scan.machine;
  }
}

/** The share of one core above which a run is `noisy` (docs/operations/benchmarks.md). */
export const NOISY_SHARE_OF_CORE = 0.1;

export interface Interference {
  seconds: number;
  /** CPU seconds of processes outside the bench's tree. */
  foreignCpuSeconds: number;
  stealSeconds: number;
  /** Busy CPU seconds no scan charged to a process: the kernel's, and processes too short-lived to be seen. */
  unchargedSeconds: number;
  /** (foreign + steal) / wall seconds: the share of one core others took. */
  shareOfCore: number;
  noisy: boolean;
}

/** The interference between two readings of a ledger's totals, `seconds` apart. */
export function interferenceBetween(
  before: CpuTotals,
  after: CpuTotals,
  seconds: number,
  ticksPerSecond: number,
): Interference {
  const delta = (key: keyof CpuTotals) => (after[key] - before[key]) / ticksPerSecond;
  const foreignCpuSeconds = delta('foreign');
  const stealSeconds = delta('steal');
  const shareOfCore = seconds > 0 ? (foreignCpuSeconds + stealSeconds) / seconds : 0;
  return {
    seconds,
    foreignCpuSeconds,
    stealSeconds,
    unchargedSeconds: Math.max(0, delta('busy') - delta('tree') - foreignCpuSeconds - stealSeconds),
    shareOfCore,
    noisy: shareOfCore > NOISY_SHARE_OF_CORE,
  };
}

export function formatInterference(interference: Interference): string {
  const percent = (interference.shareOfCore * 100).toFixed(1);
  return (
    `foreign CPU ${interference.foreignCpuSeconds.toFixed(1)} s + steal ${interference.stealSeconds.toFixed(1)} s ` +
    `over ${interference.seconds.toFixed(0)} s = ${percent} % of a core` +
    (interference.noisy ? ' NOISY (over 10 %: never quote this run)' : '') +
    `; ${interference.unchargedSeconds.toFixed(1)} s busy uncharged`
  );
}
