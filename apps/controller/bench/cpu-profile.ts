/**
 * Where a CPU profile's time went: the self time of each function (time its own code was on the
 * stack's top), from V8's sampled profile (the inspector's Profiler.stop, or `--cpu-prof`'s
 * .cpuprofile), summed per function and place, as a share of the busy time (all but `(idle)`) and as a
 * cost per instance. Places in the bench's bundle are mapped back to the TypeScript sources through
 * the bundle's source maps.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based. */
  lineNumber: number;
  /** 0-based. */
  columnNumber: number;
}

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  /** The node on top of the stack at each sample. */
  samples: number[];
  /** Microseconds before each sample since the one before it. */
  timeDeltas: number[];
}

export interface SelfTime {
  /** The function's name, `(anonymous)` without one, or V8's `(program)`, `(garbage collector)`. */
  name: string;
  /** `file:line` in the sources where a source map says, else the script's. */
  where: string;
  selfMs: number;
  /** Of the busy time (every sample but `(idle)`). */
  share: number;
}

/** Where a 0-based line and column of a script are in its sources, or undefined. */
export type Locate = (url: string, line: number, column: number) => string | undefined;

/** Self time per function and place, most first. */
export function selfTimes(profile: CpuProfile, locate: Locate = () => undefined): SelfTime[] {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, { name: string; where: string; micros: number }>();
  let busyMicros = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    // A sample lasts until the next one; the last one is given nothing.
    const micros = profile.timeDeltas[index + 1] ?? 0;
    const frame = frames.get(profile.samples[index]!);
    if (frame === undefined || frame.functionName === '(idle)') continue;
    busyMicros += micros;
    const where = frame.url
      ? (locate(frame.url, frame.lineNumber, frame.columnNumber) ??
        `${shortUrl(frame.url)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`)
      : '';
    const name = frame.functionName || '(anonymous)';
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, micros: 0 };
    entry.micros += micros;
    byFunction.set(key, entry);
  }
  return [...byFunction.values()]
    .map(({ name, where, micros }) => ({
      name,
      where,
      selfMs: micros / 1000,
      share: busyMicros > 0 ? micros / busyMicros : 0,
    }))
    .sort((a, b) => b.selfMs - a.selfMs || a.name.localeCompare(b.name));
}

/** The busy time of a profile's functions, in ms. */
export function busyMs(entries: readonly SelfTime[]): number {
  return entries.reduce((sum, entry) => sum + entry.selfMs, 0);
}

/** One line per function of the `top`: share, self ms, µs per instance, name, place. */
export function formatTopSelfTimes(entries: readonly SelfTime[], instances: number, top = 15): string[] {
  const lines = [
    `busy ${busyMs(entries).toFixed(0)} ms (${((busyMs(entries) * 1000) / instances).toFixed(1)} µs per instance); ` +
      `top ${Math.min(top, entries.length)} by self time:`,
    '   share   self ms  µs/inst.  function (place)',
  ];
  for (const entry of entries.slice(0, top)) {
    lines.push(
      `  ${(entry.share * 100).toFixed(1).padStart(5)} %  ${entry.selfMs.toFixed(1).padStart(8)}  ` +
        `${((entry.selfMs * 1000) / instances).toFixed(1).padStart(8)}  ${entry.name}${entry.where ? ` (${entry.where})` : ''}`,
    );
  }
  return lines;
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\/.*\/(node_modules|apps|packages)\//, '$1/').replace(/^node:/, 'node:');
}

/** A Locate over the source maps beside the profiled scripts (`<script>.map`), read once each. */
export function sourceMapLocator(): Locate {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string): SourceMap | undefined => {
    if (!maps.has(url)) {
      let map: SourceMap | undefined;
      try {
        const path = url.startsWith('file:') ? fileURLToPath(url) : url;
        map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as never);
      } catch {
        map = undefined;
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  return (url, line, column) => {
    const entry = mapOf(url)?.findEntry(line, column);
    if (entry === undefined || !('originalSource' in entry)) return undefined;
    return `${shortUrl(entry.originalSource)}:${entry.originalLine + 1}`;
  };
}
