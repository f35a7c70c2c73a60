/**
 * The hook phases a registration declares (spec.hook.capabilities, normalised to phase names), read
 * from hooks-v1's phase table: whether the reconcile calls the hook, and whether Scoby's finalizer
 * holds an instance for it (docs/spec/hooks-v1.md §4, §7).
 */
import { hookPhases, type HookPhaseDescriptor } from '@scoby/hooks-v1/client';

interface DeclaresCapabilities {
  readonly capabilities: readonly string[];
}

/** The rows of the phases `hook` declares, in the table's order; none without a hook. */
export function declaredPhases(hook: DeclaresCapabilities | undefined): HookPhaseDescriptor[] {
  return hook === undefined ? [] : hookPhases().filter(({ phase }) => hook.capabilities.includes(phase));
}

/** Whether `hook` declares a phase called at `moment`. */
export function callsHookAt(
  hook: DeclaresCapabilities | undefined,
  moment: HookPhaseDescriptor['calledAt'],
): boolean {
  return declaredPhases(hook).some(({ calledAt }) => calledAt === moment);
}
