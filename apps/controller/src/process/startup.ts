/**
 * The process's start-up checks: retried until they pass, a termination signal arrives, or the
 * attempts run out, with one error line per failed attempt saying what is wrong and what to do. A
 * failure no retry can fix (credentials that cannot be loaded) is said once and ends start-up.
 */
import type { Logger } from '@scoby/controller-runtime';
import type { ClusterCheck } from '../config/cluster-check.ts';

/** Waits between start-up checks: five attempts within 15 s, then the process exits (and is restarted). */
export const STARTUP_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000];

export function delay(ms: number): { done: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { done, cancel: () => clearTimeout(timer) };
}

export async function waitForCluster(
  check: () => Promise<ClusterCheck>,
  logger: Logger,
  stopRequested: Promise<string>,
): Promise<ClusterCheck | { ok: false; signal: string }> {
  const attempts = STARTUP_RETRY_DELAYS_MS.length + 1;
  for (let attempt = 1; ; attempt++) {
    const outcome = await Promise.race([
      check(),
      stopRequested.then((signal) => ({ ok: false as const, signal })),
    ]);
    if (outcome.ok || 'signal' in outcome) return outcome;
    if (outcome.final === true) {
      logger.error(`cannot start: ${outcome.problem}; ${outcome.fix}`);
      return outcome;
    }
    const retryMs = STARTUP_RETRY_DELAYS_MS[attempt - 1];
    const next = retryMs === undefined ? 'giving up' : `retrying in ${retryMs / 1000}s`;
    logger.error(
      { attempt, attempts },
      `cannot start: ${outcome.problem}; ${outcome.fix} (attempt ${attempt} of ${attempts}, ${next})`,
    );
    if (retryMs === undefined) return outcome;
    const wait = delay(retryMs);
    const signal = await Promise.race([wait.done.then(() => undefined), stopRequested]);
    wait.cancel();
    if (signal !== undefined) return { ok: false, signal };
  }
}
