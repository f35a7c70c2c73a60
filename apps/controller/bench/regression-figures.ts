/**
 * The figures the regression guard (regression-guard.ts) holds a run to, and the comparison with the
 * committed baseline: what more than the allowance above it fails.
 */

export interface GuardFigures {
  instances: number;
  /** Requests until convergence per instance, by `METHOD code` (a watch is `WATCH code`). */
  requestsPerInstance: Record<string, number>;
  reconcilesPerInstance: number;
  /** Writes while every instance was reconciled again after convergence. */
  steadyStateWrites: number;
  /** Live heap after full collections, converged less loaded, per instance. */
  liveHeapBytesPerInstance: number;
}

/** More than this many requests of one method and code, or reconciles, per instance above the baseline fails. */
export const PER_INSTANCE_ALLOWANCE = 0.05;
/** More than this share of heap per instance above the baseline fails. */
export const HEAP_ALLOWANCE = 0.1;

/** One line per figure (the run's against the baseline's), and the figures that fail. */
export function compareWithBaseline(
  baseline: GuardFigures,
  run: GuardFigures,
): { lines: string[]; failures: string[] } {
  const lines: string[] = [];
  const failures: string[] = [];
  const fmt = (value: number) => value.toFixed(3);
  const keys = [
    ...new Set([...Object.keys(baseline.requestsPerInstance), ...Object.keys(run.requestsPerInstance)]),
  ];
  for (const key of keys.sort((a, b) => a.localeCompare(b))) {
    const was = baseline.requestsPerInstance[key] ?? 0;
    const now = run.requestsPerInstance[key] ?? 0;
    const over = now - was > PER_INSTANCE_ALLOWANCE + 1e-9;
    lines.push(
      `requests ${key.padEnd(12)} ${fmt(now)} per instance (baseline ${fmt(was)})${over ? '  OVER' : ''}`,
    );
    if (over)
      failures.push(
        `${key} requests ${fmt(now)} per instance, baseline ${fmt(was)} + ${PER_INSTANCE_ALLOWANCE}`,
      );
  }
  const reconcilesOver =
    run.reconcilesPerInstance - baseline.reconcilesPerInstance > PER_INSTANCE_ALLOWANCE + 1e-9;
  lines.push(
    `reconciles            ${fmt(run.reconcilesPerInstance)} per instance (baseline ${fmt(baseline.reconcilesPerInstance)})` +
      (reconcilesOver ? '  OVER' : ''),
  );
  if (reconcilesOver)
    failures.push(
      `reconciles ${fmt(run.reconcilesPerInstance)} per instance, baseline ${fmt(baseline.reconcilesPerInstance)} + ${PER_INSTANCE_ALLOWANCE}`,
    );
  lines.push(
    `steady-state writes   ${run.steadyStateWrites} (must be 0)${run.steadyStateWrites > 0 ? '  OVER' : ''}`,
  );
  if (run.steadyStateWrites > 0) failures.push(`${run.steadyStateWrites} writes in the steady state`);
  const heapLimit = baseline.liveHeapBytesPerInstance * (1 + HEAP_ALLOWANCE);
  const heapOver = run.liveHeapBytesPerInstance > heapLimit;
  lines.push(
    `live heap             ${run.liveHeapBytesPerInstance} bytes per instance (baseline ${baseline.liveHeapBytesPerInstance}, ` +
      `at most ${Math.floor(heapLimit)})${heapOver ? '  OVER' : ''}`,
  );
  if (heapOver)
    failures.push(
      `live heap ${run.liveHeapBytesPerInstance} bytes per instance, over ${Math.floor(heapLimit)} (baseline + 10 %)`,
    );
  if (run.instances !== baseline.instances)
    failures.push(`the run has ${run.instances} instances, the baseline ${baseline.instances}`);
  return { lines, failures };
}
