/** The regression guard's comparison with its baseline (bench/regression-figures.ts). */
import { describe, expect, it } from 'vitest';
import { compareWithBaseline, type GuardFigures } from '../../bench/regression-figures.ts';

const baseline: GuardFigures = {
  instances: 1_000,
  requestsPerInstance: { 'GET 200': 0.01, 'PATCH 200': 2, 'POST 201': 3 },
  reconcilesPerInstance: 2,
  steadyStateWrites: 0,
  liveHeapBytesPerInstance: 4_000,
};

describe('compareWithBaseline', () => {
  it('passes figures within the allowances: 0.05 requests or reconciles per instance, 10 % heap', () => {
    const run: GuardFigures = {
      ...baseline,
      requestsPerInstance: { 'GET 200': 0.06, 'PATCH 200': 1.5, 'POST 201': 3.05 },
      reconcilesPerInstance: 2.05,
      liveHeapBytesPerInstance: 4_400,
    };
    const { lines, failures } = compareWithBaseline(baseline, run);
    expect(failures).toEqual([]);
    expect(lines).toEqual([
      'requests GET 200      0.060 per instance (baseline 0.010)',
      'requests PATCH 200    1.500 per instance (baseline 2.000)',
      'requests POST 201     3.050 per instance (baseline 3.000)',
      'reconciles            2.050 per instance (baseline 2.000)',
      'steady-state writes   0 (must be 0)',
      'live heap             4400 bytes per instance (baseline 4000, at most 4400)',
    ]);
  });

  it('fails each figure over its allowance, a new kind of request included', () => {
    const run: GuardFigures = {
      ...baseline,
      requestsPerInstance: { 'GET 200': 0.01, 'PATCH 200': 2.051, 'POST 201': 3, 'PUT 200': 0.06 },
      reconcilesPerInstance: 2.06,
      steadyStateWrites: 1,
      liveHeapBytesPerInstance: 4_401,
    };
    expect(compareWithBaseline(baseline, run).failures).toEqual([
      'PATCH 200 requests 2.051 per instance, baseline 2.000 + 0.05',
      'PUT 200 requests 0.060 per instance, baseline 0.000 + 0.05',
      'reconciles 2.060 per instance, baseline 2.000 + 0.05',
      '1 writes in the steady state',
      'live heap 4401 bytes per instance, over 4400 (baseline + 10 %)',
    ]);
  });
});
