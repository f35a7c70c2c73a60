/**
 * Scoby's metrics: controller-runtime's and client-go's from @scoby/controller-runtime, and Scoby's
 * own under `scoby_` in the same registry. Every metric is listed in docs/operations/metrics.md.
 */
import { createRuntimeMetrics, type MetricsOptions, type RuntimeMetrics } from '@scoby/controller-runtime';
import { hookPhases, type HookFailureOutcome } from '@scoby/hooks-v1/client';
import { Counter, Gauge, Histogram } from 'prom-client';
import { buildInfo } from './build-info.ts';

/** Seconds; from a quick cache hit to a slow hook or API server. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The `outcome` label of a hook call: a usable answer, or how the call failed (HookFailureOutcome). */
export type HookCallOutcome = 'success' | HookFailureOutcome;

/** Every value of `outcome`, so that each series exists, at 0, from a registration's first call. */
export const HOOK_CALL_OUTCOMES: readonly HookCallOutcome[] = [
  'success',
  'error-answer',
  'invalid-answer',
  'timeout',
  'transport-error',
];

export interface ControllerMetrics extends RuntimeMetrics {
  /** One call of a registration's hook in `phase` (a row of the hook phase table). */
  recordHookCall(controller: string, phase: string, durationMs: number, outcome: HookCallOutcome): void;
  /** A failed pre-reconcile call the reconcile went on without (failurePolicy Ignore). */
  recordHookFailureIgnored(controller: string): void;
  /** Where scoby_instances_not_ready reads, per running registration controller, its instances whose Ready is not True. */
  reportNotReadyInstances(source: () => ReadonlyMap<string, number>): void;
  /** Where scoby_registration_stalled reads the running registration controllers and the stalled ones. */
  reportStalledRegistrations(source: () => StalledRegistrations): void;
  /** Active-active replicas: whether this replica holds the registration's Lease. */
  setRegistrationOwned(registration: string, owned: boolean): void;
  /** Active-active replicas: the registration came to this replica or left it (`released` on purpose, `lost` at its renew deadline). */
  recordHandover(registration: string, direction: 'acquired' | 'released' | 'lost'): void;
  /** Active-active replicas: the live members this replica sees, itself included. */
  setReplicaMembers(count: number): void;
}

export interface StalledRegistrations {
  running: readonly string[];
  stalled: readonly string[];
}

export function createMetrics(options: MetricsOptions = {}): ControllerMetrics {
  const runtime = createRuntimeMetrics(options);
  const registers = [runtime.registry];

  const build = new Gauge({
    name: 'scoby_build_info',
    help: 'Always 1; the labels say which Scoby build runs on which Node.js.',
    labelNames: ['version', 'node_version'] as const,
    registers,
  });
  const { version, nodeVersion } = buildInfo();
  build.set({ version, node_version: nodeVersion }, 1);

  const hookCalls = new Counter({
    name: 'scoby_hook_calls_total',
    help: 'Hook calls, by controller (the registration), phase and outcome (success, error-answer, invalid-answer, timeout, transport-error).',
    labelNames: ['controller', 'phase', 'outcome'] as const,
    registers,
  });
  const hookFailuresIgnored = new Counter({
    name: 'scoby_hook_failures_ignored_total',
    help: 'Failed pre-reconcile calls the reconcile went on without (spec.hook.failurePolicy: Ignore), by controller (the registration).',
    labelNames: ['controller'] as const,
    registers,
  });
  const hookDuration = new Histogram({
    name: 'scoby_hook_duration_seconds',
    help: 'Hook call latency, by controller (the registration) and phase.',
    labelNames: ['controller', 'phase'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });

  const owned = new Gauge({
    name: 'scoby_registration_owned',
    help: "1 while this replica holds the registration's Lease and runs its controllers, else 0 (active-active mode); by registration.",
    labelNames: ['registration'] as const,
    registers,
  });
  const handovers = new Counter({
    name: 'scoby_registration_handovers_total',
    help: 'Registrations that came to this replica (acquired) or left it (released on purpose, lost at the renew deadline), active-active mode; by registration and direction.',
    labelNames: ['registration', 'direction'] as const,
    registers,
  });
  const members = new Gauge({
    name: 'scoby_replica_members',
    help: 'Live replicas this replica sees through their membership Leases, itself included (active-active mode).',
    registers,
  });

  let notReadySource = (): ReadonlyMap<string, number> => new Map();
  new Gauge({
    name: 'scoby_instances_not_ready',
    help: 'Instances a registration serves whose Ready condition is not True (False, Unknown or not yet written), by registration.',
    labelNames: ['registration'] as const,
    registers,
    collect() {
      this.reset();
      for (const [registration, count] of notReadySource()) this.set({ registration }, count);
    },
  });

  let stalledSource = (): StalledRegistrations => ({ running: [], stalled: [] });
  new Gauge({
    name: 'scoby_registration_stalled',
    help: "1 while a registration's work queue is stalled on its own (its reconciles wait on its hook), else 0; by controller (the registration).",
    labelNames: ['controller'] as const,
    registers,
    collect() {
      this.reset();
      const { running, stalled } = stalledSource();
      for (const controller of running) this.set({ controller }, 0);
      for (const controller of stalled) this.set({ controller }, 1);
    },
  });

  /** Registrations whose hook series exist already. */
  const calledControllers = new Set<string>();

  return {
    ...runtime,
    reportStalledRegistrations: (source) => {
      stalledSource = source;
    },
    reportNotReadyInstances: (source) => {
      notReadySource = source;
    },
    recordHookCall: (controller, phase, durationMs, outcome) => {
      if (!calledControllers.has(controller)) {
        calledControllers.add(controller);
        for (const { phase: each } of hookPhases())
          for (const value of HOOK_CALL_OUTCOMES)
            hookCalls.inc({ controller, phase: each, outcome: value }, 0);
      }
      hookCalls.inc({ controller, phase, outcome });
      hookDuration.observe({ controller, phase }, durationMs / 1000);
    },
    recordHookFailureIgnored: (controller) => {
      hookFailuresIgnored.inc({ controller });
    },
    setRegistrationOwned: (registration, isOwned) => owned.set({ registration }, isOwned ? 1 : 0),
    recordHandover: (registration, direction) => handovers.inc({ registration, direction }),
    setReplicaMembers: (count) => members.set(count),
  };
}
