/**
 * The in-process hooks an operator allowed (`--hook-module`, docs/spec/hooks-v1.md §10), loaded at
 * start-up as form-factor plugins are. A module that cannot be loaded does not stop the process: the
 * registrations naming it say why (hook-target.ts), the others run.
 */
import { importDefaultExport } from '@scoby/formfactor';
import { hookPhases, type HookHandlers } from '@scoby/hooks-v1/client';

export type HookModuleLoad = { ok: true; handlers: HookHandlers } | { ok: false; message: string };

/** Every allowed module by the name a registration gives in spec.hook.module: its specifier as written. */
export type HookModules = ReadonlyMap<string, HookModuleLoad>;

/** Relative specifiers are taken from `cwd`. */
export async function loadHookModules(specifiers: readonly string[], cwd: string): Promise<HookModules> {
  const modules = new Map<string, HookModuleLoad>();
  for (const specifier of specifiers) modules.set(specifier, await loadHookModule(specifier, cwd));
  return modules;
}

async function loadHookModule(specifier: string, cwd: string): Promise<HookModuleLoad> {
  const label = `hook module ${JSON.stringify(specifier)}`;
  const imported = await importDefaultExport(specifier, cwd, label);
  if (!imported.ok) return imported;
  const defects = handlerDefects(imported.value);
  return defects === undefined
    ? { ok: true, handlers: imported.value as HookHandlers }
    : { ok: false, message: `${label}: default export ${defects}` };
}

/** The SDK's HookHandlers: an object with a function for one phase at least (preReconcile, finalize). */
function handlerDefects(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'is not an object of hook handlers';
  const handlers = value as Record<string, unknown>;
  const names = hookPhases().map((descriptor) => descriptor.handler);
  const wrong = names.filter((name) => handlers[name] !== undefined && typeof handlers[name] !== 'function');
  if (wrong.length > 0) return `${wrong.join(', ')} must be a function`;
  if (names.every((name) => handlers[name] === undefined)) return `has neither ${names.join(' nor ')}`;
  return undefined;
}

/** The handlers of the modules that loaded, for the hook client. */
export function loadedHandlers(modules: HookModules): Map<string, HookHandlers> {
  const handlers = new Map<string, HookHandlers>();
  for (const [name, load] of modules) if (load.ok) handlers.set(name, load.handlers);
  return handlers;
}
