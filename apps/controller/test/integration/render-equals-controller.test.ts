/**
 * `scoby render` equals the controller, by property: for generated registrations, CRDs, instances,
 * hook answers and observed children, the controller on the in-memory API server and render's
 * function given the same inputs produce the same children, status, Warning Events and hook request
 * (support/render-property/batch.ts says what is compared, normalise.ts what is normalised and why).
 *
 * On the in-memory API server only: thousands of cases need a server that starts in milliseconds
 * and registers a hundred CRDs at once. Render against kube-apiserver itself is the real control
 * plane's render-golden and render-conditions scenarios.
 *
 * A case is one instance with its registration (registrations have one to three instances, which
 * share its start-up). SCOBY_RENDER_PROPERTY_CASES (default 500) and SCOBY_RENDER_PROPERTY_SEED
 * choose the run; a failure prints the seed and the cases that differed, which
 * SCOBY_RENDER_PROPERTY_ONLY replays. The long run is documented in the package README.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runBatch, type CaseReport } from '../support/render-property/batch.ts';
import { planCase } from '../support/render-property/plan-case.ts';

const CASES = Number(process.env.SCOBY_RENDER_PROPERTY_CASES ?? 500);
const SEED = Number(process.env.SCOBY_RENDER_PROPERTY_SEED ?? Date.now() % 2 ** 31);
/** Registrations sharing one API server and controller, each in a namespace and with a CRD of its own. */
const BATCH = Number(process.env.SCOBY_RENDER_PROPERTY_BATCH ?? 100);
/** `3,17`: only these registrations of the run (to replay the ones a run reported). */
const ONLY = process.env.SCOBY_RENDER_PROPERTY_ONLY?.split(',').map(Number);

/** The run's registrations: as many as it takes to reach CASES instances. */
function registrations() {
  const sampled = fc.sample(planCase, { numRuns: CASES, seed: SEED });
  let instances = 0;
  const count = sampled.findIndex((input) => (instances += input.instances.length) >= CASES) + 1;
  return sampled.slice(0, count || sampled.length).map((input, index) => ({ input, index }));
}

describe('scoby render equals the controller', () => {
  it(`for ${CASES} generated cases (seed ${SEED})`, { timeout: 120_000 + CASES * 1_000 }, async () => {
    const chosen = registrations().filter(({ index }) => ONLY?.includes(index) ?? true);
    const reports: CaseReport[] = [];
    for (let first = 0; first < chosen.length; first += BATCH) {
      reports.push(...(await runBatch(chosen.slice(first, first + BATCH))));
    }
    const outcomes = new Map<string, number>();
    for (const { outcome } of reports) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    const mean = (ms: (report: CaseReport) => number) =>
      Math.round(reports.reduce((sum, report) => sum + ms(report), 0) / reports.length);
    console.log(
      `seed ${SEED}: ${reports.length} cases of ${chosen.length} registrations: ` +
        `${[...outcomes].map(([outcome, count]) => `${outcome} ${count}`).join(', ')}; a case took ` +
        `${mean((report) => report.doneAfterMs)} ms on average, its registration Ready after ` +
        `${mean((report) => report.readyAfterMs)} ms`,
    );
    const differing = reports.filter((report) => report.differences.length > 0);
    expect(
      differing.map((report) => ({
        seed: SEED,
        registration: report.index,
        instance: report.instance,
        input: chosen.find(({ index }) => index === report.index)?.input,
        differences: report.differences,
      })),
    ).toEqual([]);
  });
});
