/** Messages between the bench and its CPU ledger process (cpu-ledger-process.ts). */
import type { CpuTotals } from './cpu-ledger.ts';

export type LedgerRequest = { kind: 'totals' } | { kind: 'stop' };

export type LedgerReply = { kind: 'ready' } | { kind: 'totals'; totals: CpuTotals };
