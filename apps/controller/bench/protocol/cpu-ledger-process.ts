/**
 * The CPU ledger (cpu-ledger.ts) in a process of its own, beside the bench rather than in it: a scan
 * of /proc every second costs CPU, which would otherwise land on the bench process (the floor's own
 * figure). Its root is its parent, the bench; it answers with the totals of a fresh scan.
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { CpuLedger } from './cpu-ledger.ts';
import { readMachineTicks, readProcesses, TICKS_PER_SECOND } from './proc.ts';
import type { LedgerReply, LedgerRequest } from './cpu-ledger-protocol.ts';

const SCAN_INTERVAL_MS = 1_000;
const ledger = new CpuLedger([process.ppid]);
const reply = (message: LedgerReply) => process.send?.(message);

function scan(): void {
  const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
  ledger.observe({
    processes: readProcesses(),
    machine: readMachineTicks(),
    uptimeTicks: Math.floor(uptimeSeconds * TICKS_PER_SECOND),
  });
}

scan();
const timer = setInterval(scan, SCAN_INTERVAL_MS);
process.on('message', (message: LedgerRequest) => {
  switch (message.kind) {
    case 'totals':
      scan();
      reply({ kind: 'totals', totals: ledger.totals });
      return;
    case 'stop':
      clearInterval(timer);
      process.exit(0);
  }
});
reply({ kind: 'ready' });
