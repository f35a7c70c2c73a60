/**
 * Where a registration's hook is called (docs/spec/hooks-v1.md §1, §10): the resolved URL of its
 * address, or `module:<name>` for a module the operator allowed and the process loaded. The URL is
 * what status.annotations.hookURL publishes and what the hook client picks its transport by.
 */
import type { Destination, NormalizedHook } from '@scoby/registration';
import { moduleHookUrl } from '@scoby/hooks-v1/client';
import type { HookModules } from './load.ts';

export type HookTarget = { ok: true; url: string } | { ok: false; reason: string; message: string };

/** ControllerReady reasons of a module hook that cannot be called (registration.md §4). */
export const HookModuleReason = {
  NotAllowed: 'HookModuleNotAllowed',
  NotLoaded: 'HookModuleNotLoaded',
} as const;

export type AddressResolver = (
  address: Destination,
) => Promise<{ ok: true; url: string } | { ok: false; message: string }>;

export async function resolveHookTarget(
  hook: NormalizedHook,
  resolveAddress: AddressResolver,
  modules: HookModules,
): Promise<HookTarget> {
  if (hook.module !== undefined) return moduleHookTarget(hook.module, modules);
  const resolved = await resolveAddress(hook.address ?? {});
  return resolved.ok ? resolved : { ok: false, reason: 'HOOKFAILED', message: resolved.message };
}

export function moduleHookTarget(name: string, modules: HookModules): HookTarget {
  const load = modules.get(name);
  if (load === undefined) {
    const allowed =
      modules.size === 0 ? 'none' : [...modules.keys()].map((key) => JSON.stringify(key)).join(', ');
    return {
      ok: false,
      reason: HookModuleReason.NotAllowed,
      message: `hook module ${JSON.stringify(name)} is not allowed: the controller allows ${allowed} (--hook-module, SCOBY_HOOK_MODULES)`,
    };
  }
  if (!load.ok) return { ok: false, reason: HookModuleReason.NotLoaded, message: load.message };
  return { ok: true, url: moduleHookUrl(name) };
}
