/**
 * CPU seconds and peak RSS of processes this bench did not write (a peer controller, the control
 * plane's components), read from /proc: utime + stime of /proc/<pid>/stat and VmHWM of
 * /proc/<pid>/status, sampled over the process tree under the given roots.
 */
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;
const MIB_IN_KIB = 1024;

interface Reading {
  parent: number;
  cpuTicks: number;
}

function readStat(pid: number): Reading | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

function peakRssKiB(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The roots and every live descendant. */
function treeOf(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = readStat(pid)?.parent;
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const pending = [...roots];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export interface TreeUsage {
  cpuSeconds: number;
  /** The sum of each process's peak RSS: exact for one process, an upper bound for several. */
  peakRssMiB: number;
}

export interface TreeSampler {
  /** Usage since the sampler started; keeps sampling. */
  read(): TreeUsage;
  stop(): TreeUsage;
}

/**
 * Samples every `intervalMs`, so a process that exits between samples loses at most that much CPU.
 * CPU spent before the sampler started is not counted. Without `descendants`, only the roots are read
 * (no scan of /proc, whose CPU would land on the bench process).
 */
export function sampleProcessTree(
  roots: readonly number[],
  { descendants = true, intervalMs = 200 }: { descendants?: boolean; intervalMs?: number } = {},
): TreeSampler {
  const startTicks = new Map<number, number>();
  const lastTicks = new Map<number, number>();
  const peaks = new Map<number, number>();
  const sample = (first: boolean) => {
    for (const pid of descendants ? treeOf(roots) : roots) {
      const ticks = readStat(pid)?.cpuTicks;
      if (ticks === undefined) continue;
      if (first) startTicks.set(pid, ticks);
      lastTicks.set(pid, ticks);
      peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peakRssKiB(pid)));
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), intervalMs);
  const read = (): TreeUsage => {
    sample(false);
    let ticks = 0;
    for (const [pid, last] of lastTicks) ticks += last - (startTicks.get(pid) ?? 0);
    let peakKiB = 0;
    for (const peak of peaks.values()) peakKiB += peak;
    return { cpuSeconds: ticks / CLOCK_TICKS_PER_SECOND, peakRssMiB: peakKiB / MIB_IN_KIB };
  };
  return {
    read,
    stop() {
      clearInterval(timer);
      return read();
    },
  };
}
