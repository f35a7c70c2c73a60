/**
 * The instance controllers as the registration reconcile drives them: one per active registration,
 * started, paused and released on its behalf (docs/spec/registration.md §6.1, §6.6–§6.8).
 */
import type { InstanceConfig } from './instance-config.ts';
import type { HookDestination } from './hook-request.ts';

/** Outcome of the checks that need the CRD (registration.md §4 second table) and of starting the controller. */
export type ControllerOutcome =
  { kind: 'failed'; reason: string; message: string } | { kind: 'starting' } | { kind: 'started' };

/** The instance controllers, one per active registration. */
export interface InstanceControllerHost {
  /** Starts or reconfigures the controller; `started` once its informers have synced. */
  ensure(config: InstanceConfig): Promise<ControllerOutcome>;
  /** Stops reconciling the registration's instances; children and finalizers are left alone. */
  pause(registrationName: string): Promise<void>;
  /**
   * Stops the controller and releases instance finalizers of `crd` (§6.6 steps 2–3, §6.7). The
   * controller is gone from the host when the call returns, before the first await;
   * `finalize` is asked for the hook to call after that.
   */
  release(
    registrationName: string,
    crdName: string,
    finalize: () => Promise<HookDestination | undefined>,
  ): Promise<void>;
  /** The CRD the running controller serves, if any. */
  crdOf(registrationName: string): string | undefined;
  /** status.instances of a running, synced controller (docs/spec/registration.md §6.8). */
  selectionCounts(registrationName: string): { served: number; servedByOthers: number } | undefined;
}
