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
    }
  | { kind: 'reconciles' }
  | { kind: 'hook-calls' }
  | { kind: 'usage' }
  | { kind: 'synced' }
  | { kind: 'heap' }
  | { kind: 'stop' };

export type ControllerReply =
  /** `rssMiB`: the process's RSS with its code loaded, before the controller starts. */
  | { kind: 'ready'; rssMiB: number }
  | { kind: 'started' }
  /** Reconciles of the bench's registration so far (controller_runtime_reconcile_total). */
  | { kind: 'reconciles'; count: number }
  /** Hook calls of the bench's registration so far, and how many of them failed. */
  | { kind: 'hook-calls'; calls: number; failures: number }
  | ({ kind: 'usage' } & ProcessUsage)
  /** Whether the controller's caches have synced (RunningController.isReady without leader election). */
  | { kind: 'synced'; synced: boolean }
  /** After full collections when the child runs with --expose-gc (`collected`): the live heap. */
  | { kind: 'heap'; heapUsedBytes: number; rssBytes: number; collected: boolean };
