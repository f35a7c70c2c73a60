/** Real-pod scenarios need pods that run: only the node provider (E2E_CLUSTER=node) has them. */
import { inject } from 'vitest';

export function realPodsOrReason(): string | undefined {
  const provider = inject('e2e').provider;
  if (provider === 'node') return undefined;
  const reason = `real-pod scenarios run only on E2E_CLUSTER=node (this run: ${provider}); see e2e/README.md`;
  console.log(`[e2e] skipped: ${reason}`);
  return reason;
}
