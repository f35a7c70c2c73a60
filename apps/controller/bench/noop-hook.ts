/**
 * The bench's hook: one no-op pre-reconcile handler, served over HTTP by the SDK's server and run
 * in-process as the module the controller child allows (docs/spec/hooks-v1.md §10), so both
 * transports run the very same hook logic.
 */
import type { HookHandlers } from '@scoby/hooks-v1/sdk';

/** The name the bench registration gives in spec.hook.module, and the controller child allows. */
export const NOOP_HOOK_MODULE = 'scoby-bench-noop-hook';

export const noopHook: HookHandlers = { preReconcile: () => undefined };

/** How a run's registration reaches the hook, if it has one. */
export type BenchHook = 'none' | 'http' | 'module';
