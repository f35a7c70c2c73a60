/**
 * The judgement of one pre-reconcile or finalize answer (docs/spec/hooks-v1.md §2, §5–§7), read with
 * the controller's own code (interpretOutcome, acceptHookAnswer): what Scoby would do with it, and
 * the findings against the contract. Pure: the outcome is given.
 */
import { hookPhase, interpretOutcome, type HookCall, type TransportOutcome } from '@scoby/hooks-v1/client';
import type { KubeObject } from '@scoby/kube-objects';
import { acceptHookAnswer, type ConditionSet } from '../../instance/hook-request.ts';
import type { Status } from '../../instance/status/instance-status.ts';
import type { Finding } from './check-types.ts';
import {
  errorBodyFindings,
  errorShapedSuccessFindings,
  isJsonObject,
  retryAfterFindings,
} from './error-answer.ts';

/** The state the pre-reconcile answer is applied to. */
export interface ReconcileState {
  working: Status;
  children: Record<string, KubeObject>;
  conditionSet: ConditionSet;
  /** The time written as lastTransitionTime; the same for every answer compared. */
  now: string;
}

/** What Scoby does after the answer, comparable between two answers to the same request. */
export type Effect =
  | { proceed: true; status?: Status; children?: Record<string, KubeObject> }
  | { proceed: false; message: string; permanent: boolean; retryAfterMs?: number };

export interface Judgement {
  findings: Finding[];
  observed: string;
  /** Absent when no answer came (timeout, transport failure). */
  effect?: Effect;
}

const TRANSPORT = 'hooks-v1.md §2, §6.4';

function fail(section: string, message: string): Finding {
  return { result: 'fail', section, message };
}

/** `children.service: missing` is §5.3, `object…` §5.2, the rest §5.1. */
function invalidSection(message: string): string {
  if (message.includes('invalid response: children')) return 'hooks-v1.md §5.3';
  if (message.includes('invalid response: object')) return 'hooks-v1.md §5.2';
  return 'hooks-v1.md §5.1';
}

/** A phase whose answer only lets the instance go, as its row of the phase table says. */
function gatesDeletion(call: HookCall): boolean {
  return hookPhase(call.phase)?.answersWithChanges === false;
}

export function judgeAnswer(
  call: HookCall,
  outcome: TransportOutcome,
  state: ReconcileState | undefined,
  nowMs: number,
): Judgement {
  if (outcome.kind === 'cut') {
    return { findings: [fail(TRANSPORT, 'the call was cut before the hook answered')], observed: 'cut' };
  }
  const result = interpretOutcome(outcome, call, nowMs);
  if (outcome.kind === 'timeout') {
    return {
      findings: [
        fail(TRANSPORT, `no complete answer within spec.hook.timeout: ${result.ok ? '' : result.message}`),
      ],
      observed: `no answer within ${call.timeoutMs / 1000}s`,
    };
  }
  if (outcome.kind === 'failed') {
    return {
      findings: [fail(TRANSPORT, result.ok ? outcome.cause : result.message)],
      observed: `no answer: ${outcome.cause}`,
    };
  }
  const { status, headers, body } = outcome;
  const observed = `HTTP ${status}`;
  if (status >= 200 && status < 300) {
    const shaped = errorShapedSuccessFindings(status, body);
    if (gatesDeletion(call)) {
      return { findings: shaped, observed: `${observed}: the instance may go`, effect: { proceed: true } };
    }
    if (!result.ok) {
      return {
        findings: [fail(invalidSection(result.message), `Scoby stops the reconcile: ${result.message}`)],
        observed: `${observed}: invalid answer`,
        effect: { proceed: false, message: result.message, permanent: false },
      };
    }
    const judged = successJudgement(result, state, body, observed);
    return { ...judged, findings: [...shaped, ...judged.findings] };
  }

  const findings = [...errorBodyFindings(status, body), ...retryAfterFindings(status, headers, body, nowMs)];
  if (result.ok) throw new Error('a non-2xx answer is never a success');
  if (status >= 300 && status < 400) {
    findings.unshift(
      fail(
        'hooks-v1.md §2',
        `HTTP ${status} redirect${headers.location ? ` to ${headers.location}` : ''}: Scoby does not follow redirects, it is an error answer: ${result.message}`,
      ),
    );
  } else if (result.continue) {
    findings.unshift({
      result: 'warn',
      section: 'hooks-v1.md §6.2',
      message: `the hook failed with continue: true: Scoby goes on without its changes and emits a Warning Event HookFailed: ${result.message}`,
    });
  } else {
    const next = result.permanent
      ? 'the instance is parked until it or the registration changes'
      : result.retryAfterMs === undefined
        ? 'retried with backoff'
        : `retried after ${result.retryAfterMs / 1000}s`;
    const what = gatesDeletion(call) ? 'the finalizer stays' : 'Scoby stops the reconcile';
    findings.unshift(
      fail('hooks-v1.md §6.2', `${what} (Ready=False/HookFailed), ${next}: ${result.message}`),
    );
  }
  const effect: Effect = result.continue
    ? { proceed: true }
    : {
        proceed: false,
        message: result.message,
        permanent: result.permanent,
        ...(result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }),
      };
  return {
    findings,
    observed: `${observed}: ${result.continue ? 'error with continue: true' : 'error'}`,
    effect,
  };
}

type Success = Extract<ReturnType<typeof interpretOutcome>, { ok: true }>;

function successJudgement(
  result: Success,
  state: ReconcileState | undefined,
  body: string,
  observed: string,
): Judgement {
  const changed = [...(result.object ? ['status'] : []), ...(result.children ? ['children'] : [])];
  const what =
    changed.length > 0
      ? `${changed.join(' and ')} replaced`
      : body.trim() === ''
        ? 'empty answer, no change'
        : 'no change';
  const summary = `${observed}: ${what}`;
  if (state === undefined) return { findings: [], observed: summary, effect: { proceed: true } };
  const accepted = acceptHookAnswer(result, state.working, state.children, state.conditionSet, state.now);
  if (!accepted.ok) {
    return {
      findings: [fail('hooks-v1.md §5', `Scoby stops the reconcile: ${accepted.message}`)],
      observed: `${observed}: invalid answer`,
      effect: { proceed: false, message: accepted.message, permanent: false },
    };
  }
  const findings: Finding[] = [];
  const warnSection = (message: string) =>
    findings.push({ result: 'warn', section: 'hooks-v1.md §5.2', message });
  if (accepted.ignoredChanges !== undefined)
    warnSection(`Scoby emits a Warning Event HookObjectChangesIgnored: ${accepted.ignoredChanges}`);
  if (accepted.repeatedConditions !== undefined)
    warnSection(`Scoby emits a Warning Event HookConditionRepeated: ${accepted.repeatedConditions}`);
  for (const type of droppedConditionTypes(result.object?.status, state)) {
    warnSection(
      `condition type ${JSON.stringify(type)} is not in statusConfiguration.conditionsFromHook: Scoby drops it`,
    );
  }
  return {
    findings,
    observed: summary,
    effect: { proceed: true, status: accepted.status, children: accepted.children },
  };
}

/** Types the answer sets that Scoby neither sent nor takes from a hook. */
function droppedConditionTypes(status: Status | undefined, state: ReconcileState): string[] {
  const conditions = status?.conditions;
  if (!Array.isArray(conditions)) return [];
  const known = new Set([...state.conditionSet.conditionTypes, ...state.conditionSet.hookConditionTypes]);
  const types = conditions
    .filter(isJsonObject)
    .map((condition) => condition.type)
    .filter((type): type is string => typeof type === 'string' && !known.has(type));
  return [...new Set(types)].sort();
}
