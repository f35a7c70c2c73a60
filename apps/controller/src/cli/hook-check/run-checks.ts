/**
 * The sequence of `scoby hook check` (docs/spec/hooks-v1.md §11): for each instance its pre-reconcile
 * call, the same call again and with its keys reordered, its finalize call twice; then the probes, and
 * a last call to see the hook still answers. Every request goes through `transport`; judging is left to
 * the pure functions of judge-answer.ts, probes.ts and same-answer.ts.
 */
import {
  buildRequestBody,
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
  /** Absent when the registration does not declare pre-reconcile. */
  preReconcile?: { call: HookCall; state: ReconcileState };
  /**
   * The finalize call for the instance as stored after the pre-reconcile answer took effect (or
   * without it); absent when the registration does not declare finalize.
   */
  finalize?: (afterPreReconcile: Effect | undefined) => HookCall;
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

const SECTIONS: Record<CaseName, string> = {
  'pre-reconcile': 'hooks-v1.md §3–§5',
  'pre-reconcile-repeated': 'hooks-v1.md §4',
  'key-order': 'hooks-v1.md §3',
  finalize: 'hooks-v1.md §7',
  'finalize-repeated': 'hooks-v1.md §4, §7',
  'request-not-json': 'hooks-v1.md §11.2',
  'request-not-a-hook-request': 'hooks-v1.md §11.2',
  'serves-after-probes': 'hooks-v1.md §11.2',
};

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
    section: SECTIONS[name],
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
    let afterPreReconcile: Effect | undefined;
    if (instance.preReconcile === undefined) {
      const why = 'skipped: the registration does not declare the pre-reconcile capability';
      for (const name of ['pre-reconcile', 'pre-reconcile-repeated', 'key-order'] as const)
        checks.push(skipped(name, instance.name, why));
    } else {
      const { call, state } = instance.preReconcile;
      const payload = payloadOf(call);
      const first = await exchange(payload);
      const judged = judgeAnswer(call, first.outcome, state, run.now());
      checks.push(check('pre-reconcile', instance.name, judged.observed, judged.findings, first.answer));
      afterPreReconcile = judged.effect;
      if (judged.effect === undefined) {
        const why = 'skipped: the first pre-reconcile call got no answer';
        checks.push(
          skipped('pre-reconcile-repeated', instance.name, why),
          skipped('key-order', instance.name, why),
        );
      } else {
        reference ??= { payload, call, state, effect: judged.effect, instance: instance.name };
        const again = await exchange(payload);
        checks.push(
          sameEffect(
            'pre-reconcile-repeated',
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
      }
    }

    if (instance.finalize === undefined) {
      const why = 'skipped: the registration does not declare the finalize capability';
      checks.push(skipped('finalize', instance.name, why), skipped('finalize-repeated', instance.name, why));
      continue;
    }
    const call = instance.finalize(afterPreReconcile);
    const payload = payloadOf(call);
    const first = await exchange(payload);
    const judged = judgeAnswer(call, first.outcome, undefined, run.now());
    checks.push(check('finalize', instance.name, judged.observed, judged.findings, first.answer));
    if (judged.effect !== undefined)
      reference ??= { payload, call, effect: judged.effect, instance: instance.name };
    if (judged.effect?.proceed !== true) {
      checks.push(
        skipped(
          'finalize-repeated',
          instance.name,
          'skipped: the first finalize call did not let the instance go',
        ),
      );
      continue;
    }
    const again = await exchange(payload);
    const repeated = judgeAnswer(call, again.outcome, undefined, run.now());
    const findings: Finding[] =
      repeated.effect?.proceed === true
        ? []
        : [
            {
              result: 'fail',
              section: SECTIONS['finalize-repeated'],
              message: `a second finalize call for an instance already let go was refused: Scoby calls finalize again when its finalizer removal conflicts (${repeated.observed})`,
            },
            ...repeated.findings.filter((finding) => finding.result === 'fail'),
          ];
    checks.push(check('finalize-repeated', instance.name, repeated.observed, findings, again.answer));
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
      [{ result: 'fail', section: SECTIONS[name], message: `${what} got no answer: ${second.observed}` }],
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
            section: SECTIONS[name],
            message: `${what} was answered differently: ${difference}`,
          },
        ];
  return check(name, instance, second.observed, findings, answer);
}
