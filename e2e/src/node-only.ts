/** Real-pod scenarios need pods that run: only the node provider (E2E_CLUSTER=node) has them. */
import { inject } from 'vitest';

export function realPodsOrReason(): string | undefined {
  const provider = inject('e2e').provider;
  if (provider === 'node') return undefined;
  const reason = `real-pod scenarios run only on E2E_CLUSTER=node (this run: ${provider}); see e2e/README.md`;
  console.log(`[e2e] skipped: ${reason}`);
  return reason;
}

/**
 * A fault scenario too slow for CI's node stage runs only with E2E_SLOW_FAULTS=1, as `command` says
 * (and on the node provider only).
 */
export function slowFaultOrReason(command: string): string | undefined {
  const noPods = realPodsOrReason();
  if (noPods !== undefined || process.env.E2E_SLOW_FAULTS === '1') return noPods;
  const reason = `a slow fault scenario, left out unless E2E_SLOW_FAULTS=1: ${command}`;
  console.log(`[e2e] skipped: ${reason}`);
  return reason;
}
