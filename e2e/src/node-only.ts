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

/** Scenarios against Knative Serving need it installed on the node (E2E_KNATIVE=1, e2e/README.md). */
export function knativeOrReason(): string | undefined {
  const noPods = realPodsOrReason();
  if (noPods !== undefined) return noPods;
  if (inject('e2e').knative) return undefined;
  const reason =
    'Knative scenarios run only with E2E_KNATIVE=1 (Knative Serving installed on the node): E2E_KNATIVE=1 bash e2e/scripts/e2e-node.sh test/node-knative/';
  console.log(`[e2e] skipped: ${reason}`);
  return reason;
}

/** A scenario that installs a stand-in for Knative's CRDs cannot run where Knative Serving runs. */
export function noKnativeOrReason(): string | undefined {
  if (!inject('e2e').knative) return undefined;
  const reason = 'this scenario replaces the Knative Service CRD, which the installed Knative Serving owns';
  console.log(`[e2e] skipped: ${reason}`);
  return reason;
}
