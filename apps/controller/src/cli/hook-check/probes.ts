/**
 * Requests Scoby never sends, that a hook should refuse without falling over (docs/spec/hooks-v1.md
 * §11): a body that is not JSON, and JSON that is not a hook request. The contract asks nothing of a
 * hook here (Scoby sends only §3 requests), so what falls short is a warning; a hook that stops
 * answering afterwards fails the check that follows them.
 */
import type { TransportOutcome } from '@scoby/hooks-v1/client';
import type { Finding } from './check-types.ts';
import { errorBodyFindings, errorShapedSuccessFindings } from './error-answer.ts';

export interface Probe {
  case: 'request-not-json' | 'request-not-a-hook-request';
  payload: string;
  describe: string;
}

/** `phase` outside §3's two values: what an SDK's request validation refuses. */
export function probes(formFactor: string): Probe[] {
  return [
    { case: 'request-not-json', payload: '{"formFactor": ', describe: 'a body that is not JSON' },
    {
      case: 'request-not-a-hook-request',
      payload: JSON.stringify({
        formFactor,
        phase: 'post-reconcile',
        object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'probe' } },
      }),
      describe: 'JSON that is not a hook request (phase "post-reconcile")',
    },
  ];
}

const SECTION = 'hooks-v1.md §11.2';

export function judgeProbe(
  probe: Probe,
  outcome: TransportOutcome,
): { findings: Finding[]; observed: string } {
  if (outcome.kind !== 'response') {
    const observed =
      outcome.kind === 'failed'
        ? `no answer: ${outcome.cause}`
        : outcome.kind === 'timeout'
          ? 'no answer in time'
          : 'cut';
    return {
      findings: [
        {
          result: 'warn',
          section: SECTION,
          message: `${probe.describe} got ${observed}; answer 400 with an error body`,
        },
      ],
      observed,
    };
  }
  const { status, body } = outcome;
  const observed = `HTTP ${status}`;
  if (status >= 400 && status < 500) return { findings: errorBodyFindings(status, body), observed };
  const advice = 'a request the hook cannot read deserves 400 with an error body';
  const findings: Finding[] = [
    { result: 'warn', section: SECTION, message: `${probe.describe} was answered HTTP ${status}: ${advice}` },
  ];
  if (status >= 200 && status < 300) findings.push(...errorShapedSuccessFindings(status, body));
  else findings.push(...errorBodyFindings(status, body));
  return { findings, observed };
}
