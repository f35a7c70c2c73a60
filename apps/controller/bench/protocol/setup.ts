/**
 * The pinned setup of a bench run (docs/operations/benchmarks.md, protocol): the image's Node.js
 * release, every process of the bench's tree at nice 0 in autogroups at nice 0, and the figures of
 * a run taken with medians and spreads over alternating rounds. Each bench prints the setup it ran
 * with; a run off the pinned setup says so beside its figures.
 */
import { readFileSync } from 'node:fs';
import { readAutogroupNice, readProcesses, treeOf } from './proc.ts';

const DOCKERFILE = new URL('../../../../Dockerfile', import.meta.url);

/** The Node.js release of the image: `ARG NODE_IMAGE=node:<version>-slim` of the Dockerfile. */
export function imageNodeVersion(dockerfile = readFileSync(DOCKERFILE, 'utf8')): string {
  const match = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)/m.exec(dockerfile);
  if (!match) throw new Error('the Dockerfile names no NODE_IMAGE=node:<version>');
  return match[1]!;
}

/**
 * `v<image's release>` or throws: figures of another Node.js are not the image's. BENCH_ANY_NODE=1
 * runs anyway, and the run is marked off the protocol.
 */
export function checkNodeVersion(): { text: string; pinned: boolean } {
  const wanted = imageNodeVersion();
  const pinned = process.version === `v${wanted}`;
  if (!pinned && process.env.BENCH_ANY_NODE !== '1') {
    throw new Error(
      `the bench runs on the image's Node.js ${wanted}, not ${process.version}: ` +
        `export PATH="$(scripts/node-from-npm.sh ${wanted}):$PATH" (or BENCH_ANY_NODE=1 for a run off the protocol)`,
    );
  }
  return {
    text: `Node ${process.version}${pinned ? " (the image's)" : ` (OFF PROTOCOL: the image runs ${wanted})`}`,
    pinned,
  };
}

/** The nice values of the bench's process tree now, e.g. `nice 0 in autogroups at nice 0 (14 processes)`. */
export function treePriorities(root = process.pid): { text: string; pinned: boolean } {
  const processes = readProcesses();
  const tree = treeOf(processes, [root]);
  const combinations = new Map<string, number>();
  let pinned = true;
  for (const stat of processes) {
    if (!tree.has(stat.pid)) continue;
    const autogroup = readAutogroupNice(stat.pid);
    if (stat.nice !== 0 || (autogroup ?? 0) !== 0) pinned = false;
    const key = `nice ${stat.nice} in autogroup${autogroup === undefined ? '' : ` at nice ${autogroup}`}`;
    combinations.set(key, (combinations.get(key) ?? 0) + 1);
  }
  const text = [...combinations]
    .map(([key, count]) => `${key} (${count} process${count === 1 ? '' : 'es'})`)
    .join(', ');
  return { text: pinned ? text : `${text}: OFF PROTOCOL (all at nice 0)`, pinned };
}

/** Rounds per size: BENCH_ROUNDS, at least 3 for a run the docs may quote. */
export function benchRounds(fallback = 3): number {
  return Number(process.env.BENCH_ROUNDS ?? fallback);
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `median (min–max)` of the values, with `digits` decimals. */
export function medianAndSpread(values: readonly number[], digits = 2): string {
  if (values.length === 0) return '-';
  const fmt = (value: number) => value.toFixed(digits);
  if (values.length === 1) return `${fmt(values[0]!)} (one round)`;
  return `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}
