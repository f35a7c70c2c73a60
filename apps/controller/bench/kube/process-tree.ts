/**
 * CPU seconds and peak RSS of processes this bench did not write (a peer controller, the control
 * plane's components), read from /proc: utime + stime of /proc/<pid>/stat and VmHWM of
 * /proc/<pid>/status, sampled over the process tree under the given roots.
 */
import { readFileSync } from 'node:fs';
import { readProcesses, readProcessStat, TICKS_PER_SECOND, treeOf } from '../protocol/proc.ts';

const MIB_IN_KIB = 1024;

function peakRssKiB(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
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
    for (const pid of descendants ? treeOf(readProcesses(), roots) : roots) {
      const ticks = readProcessStat(pid)?.cpuTicks;
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
    return { cpuSeconds: ticks / TICKS_PER_SECOND, peakRssMiB: peakKiB / MIB_IN_KIB };
  };
  return {
    read,
    stop() {
      clearInterval(timer);
      return read();
    },
  };
}
