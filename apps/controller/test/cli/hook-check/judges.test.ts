import { describe, expect, it } from 'vitest';
import {
  errorBodyFindings,
  errorShapedSuccessFindings,
  retryAfterFindings,
} from '../../../src/cli/hook-check/error-answer.ts';
import { judgeAnswer } from '../../../src/cli/hook-check/judge-answer.ts';
import { buildReport, exitCode } from '../../../src/cli/hook-check/report.ts';
import { effectDifference, reverseKeyOrder } from '../../../src/cli/hook-check/same-answer.ts';
import type { HookCall } from '@scoby/hooks-v1/client';

const NOW = Date.parse('2025-03-02T10:15:00Z');
const messages = (findings: { result: string; message: string }[]) =>
  findings.map((finding) => `${finding.result}: ${finding.message}`);

describe('error answers (docs/spec/hooks-v1.md §6.1, §6.4)', () => {
  it('takes a complete error body and plain text as they are', () => {
    expect(errorBodyFindings(422, '{"message": "bad host", "permanent": true, "continue": false}')).toEqual(
      [],
    );
    expect(errorBodyFindings(400, 'unsupported form factor')).toEqual([]);
  });

  it('warns on bodies the condition cannot say why from', () => {
    expect(messages(errorBodyFindings(500, '  '))).toEqual([
      'warn: the HTTP 500 answer has an empty body: the condition says only "HTTP 500"; answer {"message": "<why>"}',
    ]);
    expect(messages(errorBodyFindings(500, '["oops"]'))).toEqual([
      'warn: the error body is JSON but not an object: Scoby takes its text as the message, and permanent and continue as false',
    ]);
    expect(messages(errorBodyFindings(500, '{"message": "", "continue": 1}'))).toEqual([
      'warn: the error body has no message: the condition says only "HTTP 500"; add "message": "<why>"',
      'warn: "continue" is 1, not a boolean: Scoby reads it as false',
    ]);
  });

  it('judges the form of Retry-After', () => {
    const body = '{"message": "busy"}';
    expect(retryAfterFindings(503, { 'retry-after': '30' }, body, NOW)).toEqual([]);
    expect(retryAfterFindings(429, { 'retry-after': 'Sun, 02 Mar 2025 10:16:00 GMT' }, body, NOW)).toEqual(
      [],
    );
    expect(messages(retryAfterFindings(503, { 'retry-after': 'in a minute' }, body, NOW))).toEqual([
      'warn: Retry-After "in a minute" is neither delta-seconds nor an HTTP-date: Scoby retries with its backoff instead',
    ]);
    expect(messages(retryAfterFindings(500, { 'retry-after': '30' }, body, NOW))).toEqual([
      'warn: Retry-After is honoured on 429 and 503 answers only; HTTP 500 is retried with backoff',
    ]);
    expect(messages(retryAfterFindings(503, { 'retry-after': '5000' }, body, NOW))).toEqual([
      'warn: Retry-After 5000 is more than 1000 s: Scoby waits 1000 s',
    ]);
    expect(messages(retryAfterFindings(429, { 'retry-after': '1' }, '{"permanent": true}', NOW))).toEqual([
      'warn: permanent: true with a valid Retry-After on a 429 or 503 is transient: Scoby retries',
    ]);
  });

  it('notices an error body answered with a 2xx status', () => {
    expect(errorShapedSuccessFindings(200, '{"message": "no"}')).toHaveLength(1);
    expect(errorShapedSuccessFindings(200, '{"object": {"status": {}}, "message": "fine"}')).toEqual([]);
    expect(errorShapedSuccessFindings(204, '')).toEqual([]);
  });
});

describe('answers judged with the controller reading', () => {
  const call: HookCall = {
    url: 'http://hook/',
    timeoutMs: 1000,
    phase: 'finalize',
    formFactor: 'deployment',
    object: { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'a', namespace: 'n' } },
    managedKinds: [],
    instanceNamespace: 'n',
  };

  it('an empty pre-reconcile answer, or null, is no change (§5.1)', () => {
    const state = {
      working: { conditions: [] },
      children: {},
      conditionSet: { conditionTypes: ['Ready'], hookConditionTypes: [] },
      now: '2025-03-02T10:15:00Z',
    };
    const preReconcile = { ...call, phase: 'pre-reconcile' as const, children: {} };
    for (const [status, body, observed] of [
      [204, '', 'HTTP 204: empty answer, no change'],
      [200, ' null ', 'HTTP 200: no change'],
      [200, '{"object": {}, "children": null}', 'HTTP 200: no change'],
    ] as const) {
      expect(judgeAnswer(preReconcile, { kind: 'response', status, headers: {}, body }, state, NOW)).toEqual({
        findings: [],
        observed,
        effect: { proceed: true, status: { conditions: [] }, children: {} },
      });
    }
  });

  it('a 2xx finalize lets the instance go whatever its body (§5.1)', () => {
    const judged = judgeAnswer(
      call,
      { kind: 'response', status: 200, headers: {}, body: 'not json' },
      undefined,
      NOW,
    );
    expect(judged).toEqual({
      findings: [],
      observed: 'HTTP 200: the instance may go',
      effect: { proceed: true },
    });
  });

  it('an error with continue: true warns and lets the reconcile go on (§6.2)', () => {
    const judged = judgeAnswer(
      call,
      { kind: 'response', status: 500, headers: {}, body: '{"message": "metrics down", "continue": true}' },
      undefined,
      NOW,
    );
    expect(messages(judged.findings)).toEqual([
      'warn: the hook failed with continue: true: Scoby goes on without its changes and emits a Warning Event HookFailed: finalize hook: HTTP 500: metrics down',
    ]);
    expect(judged.effect).toEqual({ proceed: true });
  });

  it('a 503 with Retry-After is retried after the delay it gives (§6.4)', () => {
    const judged = judgeAnswer(
      call,
      { kind: 'response', status: 503, headers: { 'retry-after': '30' }, body: '{"message": "later"}' },
      undefined,
      NOW,
    );
    expect(messages(judged.findings)).toEqual([
      'fail: the finalizer stays (Ready=False/HookFailed), retried after 30s: finalize hook: HTTP 503: later',
    ]);
    expect(judged.effect).toEqual({
      proceed: false,
      message: 'finalize hook: HTTP 503: later',
      permanent: false,
      retryAfterMs: 30_000,
    });
  });
});

describe('comparing answers (§3, §4)', () => {
  it('reverses the keys of every object, arrays in order', () => {
    const reversed = reverseKeyOrder({ a: 1, b: { c: [{ d: 1, e: 2 }], f: null } });
    expect(JSON.stringify(reversed)).toBe('{"b":{"f":null,"c":[{"e":2,"d":1}]},"a":1}');
  });

  it('names the first path where two effects differ, ignoring key order', () => {
    expect(
      effectDifference({ proceed: true, status: { a: 1, b: 2 } }, { proceed: true, status: { b: 2, a: 1 } }),
    ).toBeUndefined();
    expect(
      effectDifference(
        { proceed: true, status: { conditions: [{ type: 'A', reason: 'x' }] } },
        { proceed: true, status: { conditions: [{ type: 'A', reason: 'y' }] } },
      ),
    ).toBe('the answers differ at status.conditions[0].reason');
    expect(effectDifference({ proceed: true }, { proceed: false, message: 'm', permanent: false })).toBe(
      'the first answer was a success, the second an error (m)',
    );
  });
});

describe('the report', () => {
  const header = { hook: 'http://hook/', registration: 'r', timeoutMs: 1000, strict: false };
  const warned = {
    case: 'finalize' as const,
    result: 'warn' as const,
    section: 's',
    observed: 'o',
    findings: [{ result: 'warn' as const, section: 's', message: 'm' }],
  };

  it('passes with warnings, fails them with strict, and exits accordingly', () => {
    expect(exitCode(buildReport(header, [warned]))).toBe(0);
    const strict = buildReport({ ...header, strict: true }, [warned]);
    expect(strict).toMatchObject({ result: 'fail', summary: { pass: 0, warn: 1, fail: 0, skip: 0 } });
    expect(exitCode(strict)).toBe(1);
  });
});
