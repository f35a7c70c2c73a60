/**
 * The shapes of `scoby hook check`'s report (docs/spec/hooks-v1.md §11): one check per case and
 * instance, each with the findings that judged it and what the hook answered.
 */

/** `warn`: a SHOULD of the contract is missed, or the answer loses something Scoby would tell a user. */
export type CheckResult = 'pass' | 'warn' | 'fail' | 'skip';

/**
 * A phase of hooks-v1's phase table (its call), `<phase>-repeated`, `key-order` (a phase whose answer
 * changes the instance), or one of the probes' and the last call's: `request-not-json`,
 * `request-not-a-hook-request`, `serves-after-probes`.
 */
export type CaseName = string;

export interface Finding {
  result: 'fail' | 'warn';
  /** Where the contract says it, e.g. `hooks-v1.md §5.3`. */
  section: string;
  message: string;
}

/** What came back, without the body. */
export type AnswerSummary =
  | { kind: 'response'; status: number; bytes: number; durationMs: number }
  | { kind: 'timeout'; durationMs: number }
  | { kind: 'failed'; cause: string; durationMs: number };

export interface Check {
  case: CaseName;
  /** `<namespace>/<name>` of the instance the request was built for; absent for probes. */
  instance?: string;
  result: CheckResult;
  /** The sections the case exercises. */
  section: string;
  /** One line on what the hook did, e.g. `HTTP 200: status and children changed`, or why it was skipped. */
  observed: string;
  findings: Finding[];
  answer?: AnswerSummary;
}

export interface CheckReport {
  /** The hook URL (or `module:<name>`). */
  hook: string;
  registration: string;
  timeoutMs: number;
  strict: boolean;
  /** `fail` when a check failed, or (with `strict`) warned. */
  result: 'pass' | 'fail';
  summary: Record<CheckResult, number>;
  checks: Check[];
}

/** The result of a check from its findings: the worst one, `pass` without any. */
export function resultOf(findings: readonly Finding[]): CheckResult {
  if (findings.some((finding) => finding.result === 'fail')) return 'fail';
  return findings.length > 0 ? 'warn' : 'pass';
}
