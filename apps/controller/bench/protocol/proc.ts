/**
 * What /proc says of processes and of the machine, as plain data: each process's parent, CPU ticks
 * (utime + stime) and start time from /proc/<pid>/stat, and the machine's busy and stolen ticks from
 * the `cpu` line of /proc/stat. Ticks are USER_HZ, 100 per second on Linux.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const TICKS_PER_SECOND = 100;

export interface ProcessStat {
  pid: number;
  parent: number;
  /** utime + stime. */
  cpuTicks: number;
  /** Ticks after boot when the process started. */
  startTicks: number;
  nice: number;
}

/** /proc/<pid>/stat; the command name may hold spaces and parentheses, so fields start after its last ')'. */
export function parseProcessStat(pid: number, text: string): ProcessStat {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    parent: Number(fields[1]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    nice: Number(fields[16]),
    startTicks: Number(fields[19]),
  };
}

/** The nice value of the process's autogroup (/proc/<pid>/autogroup), which Linux shares the CPU by first. */
export function readAutogroupNice(pid: number): number | undefined {
  try {
    const match = / nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function readProcessStat(pid: number): ProcessStat | undefined {
  try {
    return parseProcessStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every live process. */
export function readProcesses(): ProcessStat[] {
  const processes: ProcessStat[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = readProcessStat(pid);
    if (stat) processes.push(stat);
  }
  return processes;
}

/** The roots and every descendant among `processes`. */
export function treeOf(processes: readonly ProcessStat[], roots: readonly number[]): Set<number> {
  const children = new Map<number, number[]>();
  for (const { pid, parent } of processes) children.set(parent, [...(children.get(parent) ?? []), pid]);
  const tree = new Set<number>();
  const pending = [...roots];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (tree.has(pid)) continue;
    tree.add(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** The chain of parents of `pid` among `processes`, nearest first, up to (not including) pid 0. */
export function ancestorsOf(processes: readonly ProcessStat[], pid: number): number[] {
  const parents = new Map(processes.map((process) => [process.pid, process.parent]));
  const chain: number[] = [];
  for (let parent = parents.get(pid); parent !== undefined && parent > 0; parent = parents.get(parent)) {
    if (chain.includes(parent)) break;
    chain.push(parent);
  }
  return chain;
}

export interface MachineTicks {
  /** user + nice + system + irq + softirq + steal: every tick not idle or waiting for I/O. */
  busy: number;
  steal: number;
}

/** The `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal … */
export function parseMachineTicks(text: string): MachineTicks {
  const line = text.split('\n').find((candidate) => candidate.startsWith('cpu ')) ?? '';
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { busy: user + nice + system + irq + softirq + steal, steal };
}

export function readMachineTicks(): MachineTicks {
  return parseMachineTicks(readFileSync('/proc/stat', 'utf8'));
}
