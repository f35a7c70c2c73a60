/**
 * `scoby hook check`'s report (docs/spec/hooks-v1.md §11.3): the summary and exit code from the
 * checks, the human table and the JSON document.
 */
import type { Check, CheckReport, CheckResult } from './check-types.ts';

export interface ReportHeader {
  hook: string;
  registration: string;
  timeoutMs: number;
  strict: boolean;
}

export function buildReport(header: ReportHeader, checks: Check[]): CheckReport {
  const summary: Record<CheckResult, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const { result } of checks) summary[result]++;
  const failed = summary.fail > 0 || (header.strict && summary.warn > 0);
  return { ...header, result: failed ? 'fail' : 'pass', summary, checks };
}

/** 0 when the hook passed, 1 when it did not. */
export function exitCode(report: CheckReport): number {
  return report.result === 'pass' ? 0 : 1;
}

export function formatJson(report: CheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** One row per check, its findings indented below it, then the summary line. */
export function formatTable(report: CheckReport): string {
  const rows = report.checks.map((check) => [
    check.result,
    check.case,
    check.instance ?? '-',
    check.observed,
  ]);
  const widths = [0, 1, 2].map((column) =>
    Math.max(
      ...[['RESULT', 'CASE', 'INSTANCE'][column]!, ...rows.map((row) => row[column]!)].map(
        (cell) => cell.length,
      ),
    ),
  );
  const line = (cells: string[]) =>
    `${cells.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  ')}`.trimEnd();
  const lines = [
    `hook ${report.hook}, registration ${report.registration}, timeout ${report.timeoutMs / 1000}s`,
  ];
  lines.push(line(['RESULT', 'CASE', 'INSTANCE', 'ANSWER']));
  for (const [index, check] of report.checks.entries()) {
    lines.push(line(rows[index]!));
    for (const finding of check.findings)
      lines.push(`  ${finding.result}: ${finding.section}: ${finding.message}`);
  }
  const { pass, warn, fail, skip } = report.summary;
  const verdict = report.result === 'pass' ? 'the hook passes' : 'the hook fails';
  lines.push(
    `${pass} passed, ${warn} warned, ${fail} failed, ${skip} skipped: ${verdict}${report.strict ? ' (--strict: warnings fail)' : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
