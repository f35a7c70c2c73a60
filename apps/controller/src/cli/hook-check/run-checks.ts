/**
 * The sequence of `scoby hook check` (docs/spec/hooks-v1.md §11), row by row of hooks-v1's phase
 * table: for each instance a phase whose answer changes it (pre-reconcile) is called, called again
 * and called with its keys reordered; a phase that gates its deletion (finalize) is called twice;
 * then the probes, and a last call to see the hook still answers. Every request goes through
 * `transport`; judging is left to the pure functions of judge-answer.ts, probes.ts and same-answer.ts.
 */
import {
  buildRequestBody,
  hookPhase,
  hookPhases,
  type FormFactorFormat,
  type HookCall,
  type HookTransport,
  type TransportOutcome,
} from '@scoby/hooks-v1/client';
import { resultOf, type AnswerSummary, type CaseName, type Check, type Finding } from './check-types.ts';
import { judgeAnswer, type Effect, type Judgement, type ReconcileState } from './judge-answer.ts';
import { judgeProbe, probes } from './probes.ts';
import { effectDifference, reverseKeyOrder } from './same-answer.ts';

export interface InstanceUnderCheck {
  /** `<namespace>/<name>`. */
  name: string;
  /**
   * The call of each phase the registration declares, by phase; a reconcile phase's with the state
   * its answer is applied to, a deletion phase's for the instance as stored after the reconcile
   * phases' answers took effect (or without them).
   */
  calls: Partial<
    Record<string, (afterReconcile: Effect | undefined) => { call: HookCall; state?: ReconcileState }>
  >;
}

export interface CheckRun {
  send: HookTransport;
  formFactorFormat: FormFactorFormat;
  /** The registration's form factor as the request names it. */
  formFactor: string;
  timeoutMs: number;
  instances: InstanceUnderCheck[];
  /** Epoch milliseconds, for Retry-After dates. */
  now(): number;
  /** Milliseconds for durations. */
  elapsed(): number;
  signal?: AbortSignal;
}

interface Exchange {
  outcome: TransportOutcome;
  answer: AnswerSummary | undefined;
}

const FIXED_SECTIONS: Record<string, string> = {
  'key-order': 'hooks-v1.md §3',
  'request-not-json': 'hooks-v1.md §11.2',
  'request-not-a-hook-request': 'hooks-v1.md §11.2',
  'serves-after-probes': 'hooks-v1.md §11.2',
};

/** A phase's own case cites its row's sections; its repetition §4 (and a gate's own section). */
function sectionOf(name: CaseName): string {
  const fixed = FIXED_SECTIONS[name];
  if (fixed !== undefined) return fixed;
  const row = hookPhase(name.replace(/-repeated$/, ''));
  if (row === undefined) throw new Error(`no section for check ${name}`);
  if (!name.endsWith('-repeated')) return row.section;
  return row.answersWithChanges
    ? 'hooks-v1.md §4'
    : `hooks-v1.md §4, ${row.section.replace('hooks-v1.md ', '')}`;
}

function check(
  name: CaseName,
  instance: string | undefined,
  observed: string,
  findings: Finding[],
  answer?: AnswerSummary,
): Check {
  return {
    case: name,
    ...(instance === undefined ? {} : { instance }),
    result: resultOf(findings),
    section: sectionOf(name),
    observed,
    findings,
    ...(answer === undefined ? {} : { answer }),
  };
}

function skipped(name: CaseName, instance: string | undefined, why: string): Check {
  return { ...check(name, instance, why, []), result: 'skip' };
}

export async function runChecks(run: CheckRun): Promise<Check[]> {
  const exchange = async (payload: string): Promise<Exchange> => {
    const started = run.elapsed();
    const outcome = await run.send(payload, {
      timeoutMs: run.timeoutMs,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    const durationMs = Math.round(run.elapsed() - started);
    const answer: AnswerSummary | undefined =
      outcome.kind === 'response'
        ? { kind: 'response', status: outcome.status, bytes: Buffer.byteLength(outcome.body), durationMs }
        : outcome.kind === 'timeout'
          ? { kind: 'timeout', durationMs }
          : outcome.kind === 'failed'
            ? { kind: 'failed', cause: outcome.cause, durationMs }
            : undefined;
    return { outcome, answer };
  };
  const payloadOf = (call: HookCall): string => JSON.stringify(buildRequestBody(call, run.formFactorFormat));

  const checks: Check[] = [];
  /** The first call that was answered, and its effect: sent again after the probes. */
  let reference:
    { payload: string; call: HookCall; state?: ReconcileState; effect: Effect; instance: string } | undefined;

  for (const instance of run.instances) {
    let afterReconcile: Effect | undefined;
    for (const row of hookPhases()) {
      const { phase } = row;
      const planned = instance.calls[phase];
      const cases = row.answersWithChanges
        ? [phase, `${phase}-repeated`, 'key-order']
        : [phase, `${phase}-repeated`];
      if (planned === undefined) {
        const why = `skipped: the registration does not declare the ${phase} capability`;
        for (const name of cases) checks.push(skipped(name, instance.name, why));
        continue;
      }
      const { call, state } = planned(afterReconcile);
      const payload = payloadOf(call);
      const first = await exchange(payload);
      const judged = judgeAnswer(call, first.outcome, state, run.now());
      checks.push(check(phase, instance.name, judged.observed, judged.findings, first.answer));
      if (row.calledAt === 'reconcile') afterReconcile = judged.effect;
      if (row.answersWithChanges) {
        if (judged.effect === undefined) {
          const why = `skipped: the first ${phase} call got no answer`;
          for (const name of cases.slice(1)) checks.push(skipped(name, instance.name, why));
          continue;
        }
        reference ??= {
          payload,
          call,
          ...(state ? { state } : {}),
          effect: judged.effect,
          instance: instance.name,
        };
        const again = await exchange(payload);
        checks.push(
          sameEffect(
            `${phase}-repeated`,
            instance.name,
            judged.effect,
            judgeAnswer(call, again.outcome, state, run.now()),
            again.answer,
            'the same request sent again',
          ),
        );
        const reordered = await exchange(JSON.stringify(reverseKeyOrder(JSON.parse(payload))));
        checks.push(
          sameEffect(
            'key-order',
            instance.name,
            judged.effect,
            judgeAnswer(call, reordered.outcome, state, run.now()),
            reordered.answer,
            'the same request with its JSON keys in reverse order',
          ),
        );
        continue;
      }
      if (judged.effect !== undefined)
        reference ??= { payload, call, effect: judged.effect, instance: instance.name };
      if (judged.effect?.proceed !== true) {
        const why = `skipped: the first ${phase} call did not let the instance go`;
        checks.push(skipped(`${phase}-repeated`, instance.name, why));
        continue;
      }
      const again = await exchange(payload);
      const repeated = judgeAnswer(call, again.outcome, state, run.now());
      const findings: Finding[] =
        repeated.effect?.proceed === true
          ? []
          : [
              {
                result: 'fail',
                section: sectionOf(`${phase}-repeated`),
                message: `a second ${phase} call for an instance already let go was refused: Scoby calls ${phase} again when its finalizer removal conflicts (${repeated.observed})`,
              },
              ...repeated.findings.filter((finding) => finding.result === 'fail'),
            ];
      checks.push(check(`${phase}-repeated`, instance.name, repeated.observed, findings, again.answer));
    }
  }

  for (const probe of probes(run.formFactor)) {
    const sent = await exchange(probe.payload);
    const judged = judgeProbe(probe, sent.outcome);
    checks.push(check(probe.case, undefined, judged.observed, judged.findings, sent.answer));
  }

  if (reference === undefined) {
    checks.push(skipped('serves-after-probes', undefined, 'skipped: no call was answered before the probes'));
  } else {
    const again = await exchange(reference.payload);
    const judged = judgeAnswer(reference.call, again.outcome, reference.state, run.now());
    checks.push(
      sameEffect(
        'serves-after-probes',
        reference.instance,
        reference.effect,
        judged,
        again.answer,
        `the ${reference.call.phase} request sent again after the probes`,
      ),
    );
  }
  return checks;
}

/** The second answer must have the first one's effect (§4 idempotence, §3 key order). */
function sameEffect(
  name: CaseName,
  instance: string,
  first: Effect,
  second: Judgement,
  answer: AnswerSummary | undefined,
  what: string,
): Check {
  if (second.effect === undefined) {
    return check(
      name,
      instance,
      second.observed,
      [{ result: 'fail', section: sectionOf(name), message: `${what} got no answer: ${second.observed}` }],
      answer,
    );
  }
  const difference = effectDifference(first, second.effect);
  const findings: Finding[] =
    difference === undefined
      ? []
      : [
          {
            result: 'fail',
            section: sectionOf(name),
            message: `${what} was answered differently: ${difference}`,
          },
        ];
  return check(name, instance, second.observed, findings, answer);
}
