import { describe, expect, it } from 'vitest';
import { normaliseOutput } from './support/normalise.ts';

describe('normaliseOutput', () => {
  it('makes ages, times, uids and ports placeholders, and column padding one space', () => {
    const run = [
      'NAME     READY   AGE',
      'orders   True    3m12s',
      '{"lastTransitionTime":"2026-11-26T12:39:43Z","uid":"0f6e2c9a-4b1d-4e8f-9a3c-7d5b2e1f0a64"}',
      'hook listening on http://127.0.0.1:40123/v1',
      '',
    ].join('\n');
    const shown = [
      'NAME   READY   AGE',
      'orders True 5s',
      '{"lastTransitionTime":"2026-01-01T00:00:00Z","uid":"5a8b3c1e-9d2f-4e7a-b6c0-1f2e3d4c5b6a"}',
      'hook listening on http://127.0.0.1:8081/v1',
    ].join('\n');
    expect(normaliseOutput(run)).toBe(normaliseOutput(shown));
    expect(normaliseOutput(run)).toBe(
      'NAME READY AGE\norders True <age>\n{"lastTransitionTime":"<time>","uid":"<uid>"}\nhook listening on http://127.0.0.1:<port>/v1',
    );
  });

  it('keeps what a reader compares: words, numbers without a unit, statuses', () => {
    expect(normaliseOutput('orders   True   587')).not.toBe(normaliseOutput('orders   False   587'));
    expect(normaliseOutput('replicas 2')).not.toBe(normaliseOutput('replicas 3'));
  });
});
