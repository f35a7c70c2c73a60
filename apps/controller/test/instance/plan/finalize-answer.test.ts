/**
 * The finalize answer as the plan reads it (docs/spec/hooks-v1.md §7): the finalizer goes after a
 * success, and after an error answering `continue: true` with a HookFailed Warning; otherwise the
 * reconcile stops as a failed call does.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { planFinalizeAnswer } from '../../../src/instance/plan/finalize-answer.ts';
import { hookFailure } from '../hook-failure.ts';
import { planTarget } from './plan-target.ts';

const NOW = '2026-11-29T16:00:00Z';
const LEAVING: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Mailer',
  metadata: { name: 'orders', namespace: 'shop', uid: 'u-1', generation: 1 },
  spec: {},
};

describe('the finalize answer', () => {
  it('lets the instance go after an error answering continue, with that error as a HookFailed Warning', () => {
    const answer = hookFailure({
      outcome: 'error-answer',
      message: 'finalize hook: HTTP 500: mailbox busy',
      continue: true,
    });
    expect(planFinalizeAnswer(planTarget(), LEAVING, answer, NOW)).toEqual({
      kind: 'remove',
      warnings: {
        warnings: [{ reason: 'HookFailed', message: 'finalize hook: HTTP 500: mailbox busy' }],
        judged: [],
      },
    });
  });

  it('keeps the finalizer after an error without continue, retrying', () => {
    const answer = hookFailure({ outcome: 'error-answer', message: 'finalize hook: HTTP 500: mailbox busy' });
    const planned = planFinalizeAnswer(planTarget(), LEAVING, answer, NOW);
    if (planned.kind !== 'stop') throw new Error('the finalizer was let go');
    expect({ failure: planned.stop.failure, next: planned.stop.next }).toEqual({
      failure: { reason: 'HookFailed', message: 'finalize hook: HTTP 500: mailbox busy' },
      next: { kind: 'retry' },
    });
  });
});
