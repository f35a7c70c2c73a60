/** Messages between the bench and its controller child process. */
import type { ProcessUsage } from './child-process.ts';

export type ControllerRequest =
  | {
      kind: 'start';
      kubeconfig: string;
      concurrency: number;
      registration: string;
      scobyNamespace: string;
      /** Allow the no-op hook module (noop-hook.ts) in-process. */
      hookModule: boolean;
      /** Absent: no leader election (one controller alone, as the controller bench runs it). */
      leaderElection?: BenchLeaderElection;
    }
  | { kind: 'owned' }
  | { kind: 'reconcile-counts' }
  | { kind: 'reconciles' }
  | { kind: 'hook-calls' }
  | { kind: 'usage' }
  | { kind: 'synced' }
  | { kind: 'heap' }
  /** Starts the inspector's CPU profiler (1 ms sampling). */
  | { kind: 'profile-start' }
  /** Stops it and writes the profile (JSON of a .cpuprofile) to `path`. */
  | { kind: 'profile-stop'; path: string }
  /** Writes a heap snapshot, after full collections when the child runs with --expose-gc. */
  | { kind: 'heap-snapshot'; path: string }
  | { kind: 'stop' };

/** The replicas bench's controllers: the Lease `scoby-controller-leader` in Scoby's namespace. */
export interface BenchLeaderElection {
  mode: 'leader' | 'active-active';
  /**
   * The controller's leaseDurationMs: renew deadline and retry period follow from it (0.66 and 0.2
   * of it). Absent: the controller's defaults, 15 s, 10 s and 2 s.
   */
  leaseDurationMs?: number;
}

export type ControllerReply =
  /** `rssMiB`: the process's RSS with its code loaded, before the controller starts. */
  | { kind: 'ready'; rssMiB: number }
  | { kind: 'started' }
  /** Reconciles of the bench's registration so far (controller_runtime_reconcile_total). */
  | { kind: 'reconciles'; count: number }
  /** Hook calls of the bench's registration so far, and how many of them failed. */
  | { kind: 'hook-calls'; calls: number; failures: number }
  | ({ kind: 'usage' } & ProcessUsage)
  /** Active-active mode: the registrations whose Leases the controller holds; null in leader mode. */
  | { kind: 'owned'; registrations: string[] | null }
  /** Reconciles so far by the metric's `controller` label (a registration's name for its instances). */
  | { kind: 'reconcile-counts'; counts: Record<string, number> }
  /** Whether the controller's caches have synced (RunningProcess.isReady without leader election). */
  | { kind: 'synced'; synced: boolean }
  /** After full collections when the child runs with --expose-gc (`collected`): the live heap. */
  | { kind: 'heap'; heapUsedBytes: number; rssBytes: number; collected: boolean }
  | { kind: 'profiling' }
  | { kind: 'profile'; path: string }
  | { kind: 'heap-snapshot'; path: string };
