/** What every scenario shares: the run's options, and how it reports invariants and crashes. */
import type { DynamicClient } from '@scoby/controller-runtime';
import type { ScobyRunChild } from './controller.ts';
import {
  countByKind,
  sampleHalfWrites,
  VIOLATION_KINDS,
  type Settled,
  type Violation,
  type ViolationKind,
} from './invariants.ts';
import type { Workload } from './cluster.ts';
import type { Churn, TrackedInstance } from './churn.ts';
import type { Random } from './random.ts';
import type { Report } from './report.ts';

export interface ChaosOptions {
  seed: number;
  /** Live instances during churn. */
  instances: number;
  kills: number;
  failoverRounds: number;
  faultRounds: number;
  faultRoundSeconds: number;
  /** About this share (%) of the controller's requests fail while a fault round lasts. */
  faultPercent: number;
  hookRounds: number;
  hookPhaseSeconds: number;
  registrations: number;
  specs: number;
  memoryMinutes: number;
  concurrency: number;
  /** Registrations whose shared hook never answers (fair-slots). */
  hangingRegistrations: number;
  hangingInstances: number;
  starveSeconds: number;
  starvePaceMs: number;
  /** Seconds of 429 answers with Retry-After (retry-after). */
  stormSeconds: number;
  retryAfterSeconds: number;
  /** The grace period SIGTERM must end the process within (shutdown). */
  graceSeconds: number;
  /** Length of the soak. */
  soakMinutes: number;
  /** Instances whose own spec cannot render (render-parking). */
  unrenderable: number;
  /** How long the cluster may take to settle after the chaos stops. */
  patienceSeconds: number;
}

export type Scenario = (options: ChaosOptions, report: Report) => Promise<void>;

/** Violations shown at most per scenario; the counts cover all of them. */
const SHOWN_VIOLATIONS = 10;

/**
 * Every invariant of the final check (each kind must count 0), with half-writes seen while the chaos
 * ran added to those of the final check. `issueKinds` are the ones the first chaos run reported for this scenario.
 */
export function reportSettled(
  report: Report,
  settled: Settled,
  duringChaos: readonly Violation[],
  issueKinds: readonly ViolationKind[],
): void {
  const counts = countByKind([...settled.violations, ...duringChaos]);
  for (const kind of VIOLATION_KINDS) {
    report.zero(kind, counts[kind], issueKinds.includes(kind) ? '0' : '-');
  }
  report.info('seconds to settle after the chaos', settled.seconds);
  for (const violation of [...duringChaos, ...settled.violations].slice(0, SHOWN_VIOLATIONS)) {
    report.note(`${violation.kind}: ${violation.object}: ${violation.detail}`);
  }
}

/** The final check of a scenario that churned instances while faults ran, and what the churn did. */
export function reportChurnUnderFaults(
  report: Report,
  settled: Settled,
  duringChaos: { violations: readonly Violation[]; sampled: number },
  churn: Churn,
): void {
  reportSettled(report, settled, duringChaos.violations, ['half-write']);
  report.info('half-write samples taken during the faults', duringChaos.sampled);
  report.zero('harness writes refused', churn.failures.length);
  report.info(
    'instances created / updated / deleted',
    `${churn.counts.creates} / ${churn.counts.updates} / ${churn.counts.deletes}`,
  );
}

/** Crashes (exits nobody asked for) must be 0; error log lines are reported, the commonest in notes. */
export function reportControllers(report: Report, controllers: readonly ScobyRunChild[], issue = '0'): void {
  const crashes = controllers.flatMap((controller) => (controller.crash ? [controller.crash] : []));
  report.zero('controller crashes', crashes.length, issue);
  for (const crash of crashes) {
    report.note(
      `controller ${crash.controller} exited by itself (code ${crash.code}, signal ${crash.signal}): ${crash.stderr.trim().slice(-2000)}`,
    );
  }
  const errors = new Map<string, { count: number; example: string }>();
  for (const controller of controllers) {
    for (const [key, { count, example }] of controller.errors) {
      errors.set(key, {
        count: (errors.get(key)?.count ?? 0) + count,
        example: errors.get(key)?.example ?? example,
      });
    }
  }
  report.info(
    'controller error log lines',
    [...errors.values()].reduce((sum, { count }) => sum + count, 0),
  );
  for (const [key, { count, example }] of [...errors].sort((a, b) => b[1].count - a[1].count).slice(0, 5)) {
    report.note(`error log lines "${key}" x${count}, e.g. ${example.slice(0, 300)}`);
  }
}

/** Samples half-writes every second while the chaos runs; `stop` returns what it found. */
export function startHalfWriteSampler(
  client: DynamicClient,
  workloads: readonly Workload[],
  tracked: readonly TrackedInstance[],
  random: Random,
): { stop(): Promise<{ sampled: number; violations: Violation[] }> } {
  let stopped = false;
  let sampled = 0;
  const violations: Violation[] = [];
  const loop = (async () => {
    while (!stopped) {
      const sample = await sampleHalfWrites(client, workloads, tracked, random, 5);
      sampled += sample.sampled;
      violations.push(...sample.violations);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { sampled, violations };
    },
  };
}
