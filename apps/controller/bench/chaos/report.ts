/**
 * The figures of a chaos run, each beside what the first chaos run measured, and the machine's load while the
 * scenario ran. A figure with a bound is an invariant: breaking it makes the run fail.
 */
import { readFileSync } from 'node:fs';

export interface Figure {
  scenario: string;
  name: string;
  value: number | string;
  /** What the first chaos run reported for the same figure. */
  issue?: string;
  /** Absent for figures that are only reported. */
  holds?: boolean;
}

export class Report {
  readonly figures: Figure[] = [];
  readonly notes: string[] = [];
  readonly #scenario: string;

  constructor(scenario: string) {
    this.#scenario = scenario;
  }

  /** A figure that is only reported. */
  info(name: string, value: number | string, issue?: string): void {
    this.figures.push({ scenario: this.#scenario, name, value, ...(issue ? { issue } : {}) });
  }

  /** An invariant: `value` must be 0. */
  zero(name: string, value: number, issue = '0'): void {
    this.figures.push({ scenario: this.#scenario, name, value, issue, holds: value === 0 });
  }

  /** An invariant with its own test. */
  check(name: string, value: number | string, holds: boolean, issue?: string): void {
    this.figures.push({ scenario: this.#scenario, name, value, ...(issue ? { issue } : {}), holds });
  }

  note(text: string): void {
    this.notes.push(`${this.#scenario}: ${text}`);
  }
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
}

export function formatTable(figures: readonly Figure[]): string {
  const rows = [
    ['scenario', 'figure', 'measured', 'issue or target', ''],
    ...figures.map((figure) => [
      figure.scenario,
      figure.name,
      typeof figure.value === 'number' ? String(round(figure.value)) : figure.value,
      figure.issue ?? '',
      figure.holds === undefined ? '' : figure.holds ? 'ok' : 'BROKEN',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function round(value: number): number {
  return Number.isInteger(value) ? value : Math.round(value * 100) / 100;
}
