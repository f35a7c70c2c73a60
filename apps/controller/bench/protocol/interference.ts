/**
 * The bench's side of the CPU ledger process: windows of a run (a side, a round), each with the CPU
 * others took meanwhile (cpu-ledger.ts), so that a run disturbed by other work is marked `noisy`.
 */
import { forkBenchChild } from '../child-process.ts';
import { type Interference, interferenceBetween } from './cpu-ledger.ts';
import type { LedgerReply, LedgerRequest } from './cpu-ledger-protocol.ts';
import { TICKS_PER_SECOND } from './proc.ts';

export interface InterferenceMeter {
  /** Opens a window; calling the answer closes it. */
  window(): Promise<() => Promise<Interference>>;
  stop(): Promise<void>;
}

export async function startInterferenceMeter(): Promise<InterferenceMeter> {
  const child = await forkBenchChild<LedgerRequest, LedgerReply>(
    new URL('./cpu-ledger-process.ts', import.meta.url),
    undefined,
  );
  const totals = async () => (await child.ask({ kind: 'totals' }, 'totals')).totals;
  return {
    async window() {
      const before = await totals();
      const started = performance.now();
      return async () => {
        const after = await totals();
        return interferenceBetween(before, after, (performance.now() - started) / 1000, TICKS_PER_SECOND);
      };
    },
    stop: () => child.exit({ kind: 'stop' }),
  };
}
