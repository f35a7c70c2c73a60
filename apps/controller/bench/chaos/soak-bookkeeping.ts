/**
 * The soak's bookkeeping, pure so that a unit test can hold it to account: who held the Lease when
 * each write reached the API server, which violations are lost updates, whether the RSS stayed flat,
 * and the soak's duration from the command line.
 */
import type { RequestLogEntry } from '@scoby/in-memory-apiserver';
import type { Violation, ViolationKind } from './invariants.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LEASE_PATH = /\/leases\/[^/]+$|\/leases$/;

export interface LeaseLedger {
  /** The controller user whose Lease write the server last accepted; undefined before any. */
  holder: string | undefined;
  /** Writes (not of the Lease) by a controller that did not hold the Lease when the server got them. */
  doubleWrites: number;
  examples: string[];
}

export const EMPTY_LEDGER: LeaseLedger = { holder: undefined, doubleWrites: 0, examples: [] };
const EXAMPLES_KEPT = 10;

/**
 * Goes through request-log entries in the order the server served them. A Lease write the server
 * accepted makes its sender the holder; any other write a controller sends while another holds the
 * Lease (or before anyone does) is a double write, whatever the server answered: two controllers
 * were writing at once. `isController` tells the controllers' users from everyone else's.
 */
export function recordLeaseWrites(
  ledger: LeaseLedger,
  entries: readonly Pick<RequestLogEntry, 'method' | 'path' | 'user' | 'code'>[],
  isController: (user: string | undefined) => boolean,
): LeaseLedger {
  let { holder, doubleWrites } = ledger;
  const examples = [...ledger.examples];
  for (const entry of entries) {
    if (!isController(entry.user) || !WRITES.has(entry.method)) continue;
    if (LEASE_PATH.test(entry.path)) {
      if (entry.code < 300) holder = entry.user;
      continue;
    }
    if (entry.user !== holder) {
      doubleWrites++;
      if (examples.length < EXAMPLES_KEPT) {
        examples.push(
          `${entry.method} ${entry.path} by ${entry.user ?? '?'} while ${holder ?? 'nobody'} held the Lease`,
        );
      }
    }
  }
  return { holder, doubleWrites, examples };
}

/** Violations that mean a spec the harness wrote is not (or not wholly) what the cluster runs. */
export const LOST_UPDATE_KINDS: readonly ViolationKind[] = [
  'lost-write',
  'lost-status',
  'stale-child',
  'missing-child',
  'half-write',
];

/** Objects with a violation of a lost-update kind, each counted once. */
export function updatesLost(violations: readonly Violation[]): number {
  return new Set(
    violations
      .filter((violation) => LOST_UPDATE_KINDS.includes(violation.kind))
      .map((violation) => violation.object),
  ).size;
}

export interface RssSample {
  /** Epoch milliseconds. */
  at: number;
  rssMiB: number;
}

export interface Flatness {
  afterWarmUpMiB: number;
  endMiB: number;
  /** (end - after warm-up) / after warm-up. */
  change: number;
}

const mean = (samples: readonly RssSample[]) =>
  samples.reduce((sum, sample) => sum + sample.rssMiB, 0) / samples.length;

/**
 * RSS at the end against RSS after the warm-up (the first `warmUpShare` of the samples' time span),
 * each the mean of `window` samples so that one garbage collection does not decide. NaN figures
 * when there are fewer than 2 windows of samples.
 */
export function flatness(samples: readonly RssSample[], warmUpShare = 0.25, window = 3): Flatness {
  if (samples.length < 2 * window) return { afterWarmUpMiB: NaN, endMiB: NaN, change: NaN };
  const first = (samples[0] as RssSample).at;
  const last = (samples[samples.length - 1] as RssSample).at;
  const warmedUp = samples.filter((sample) => sample.at >= first + (last - first) * warmUpShare);
  const afterWarmUpMiB = mean(warmedUp.slice(0, window));
  const endMiB = mean(samples.slice(-window));
  return { afterWarmUpMiB, endMiB, change: (endMiB - afterWarmUpMiB) / afterWarmUpMiB };
}

/** `30m`, `2m`, `90s`, `1h` or a bare number of minutes, in seconds. */
export function parseSoakDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (match === null) throw new Error(`--soak: not a duration: "${text}" (e.g. 30m, 90s)`);
  const value = Number(match[1]);
  const seconds = value * { s: 1, m: 60, h: 3600 }[(match[2] ?? 'm') as 's' | 'm' | 'h'];
  if (seconds <= 0) throw new Error(`--soak: must be longer than 0: "${text}"`);
  return seconds;
}
