/**
 * What a finalize answer means (docs/spec/hooks-v1.md §6.5, finalize column; §7): the finalizer is
 * removed after a 2xx or an error with `continue: true` (its Event sent), else the reconcile stops
 * on it with the finalizer kept, whatever the failure policy (§6.6).
 */
import type { HookResult } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { startWorkingStatus } from '../status/instance-status.ts';
import { stopNext } from './after-hook.ts';
import type { InstanceTarget } from './instance-target.ts';
import { stopWith, type Stop } from './stop.ts';
import { NO_WARNINGS, type StageWarnings } from './warnings.ts';

export type FinalizeAnswer = { kind: 'remove'; warnings: StageWarnings } | { kind: 'stop'; stop: Stop };

export function planFinalizeAnswer(
  target: InstanceTarget,
  instance: KubeObject,
  answer: HookResult,
  now: string,
): FinalizeAnswer {
  if (answer.ok) return { kind: 'remove', warnings: NO_WARNINGS };
  if (answer.continue)
    return {
      kind: 'remove',
      warnings: { warnings: [{ reason: 'HookFailed', message: answer.message }], judged: [] },
    };
  const working = startWorkingStatus(instance.status, target.conditionTypes, now);
  const failure = { reason: 'HookFailed' as const, message: answer.message };
  return { kind: 'stop', stop: stopWith(instance, working, target.features, failure, stopNext(answer)) };
}
