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
 * Why a scenario that needs Scoby in the test process (a hook served by the test on 127.0.0.1, the
 * controller Deployment of deploy/ applied next to it) cannot run where the chart's pods are the
 * controller; undefined elsewhere. The reason is printed.
 */
export function inProcessControllerOnly(what: string, instead: string): string | undefined {
  if (inject('e2e').provider !== 'node') return undefined;
  const reason = `${what}: on E2E_CLUSTER=node the controller is the chart's pod; ${instead}`;
  console.log(`[e2e] skipped: ${reason}`);
  return reason;
}
