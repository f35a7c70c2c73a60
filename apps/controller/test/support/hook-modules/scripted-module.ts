/**
 * An in-process hook module (docs/spec/hooks-v1.md §10) for tests: its default export is the SDK's
 * HookHandlers, answering each instance as its script says (no change by default), and recording
 * every call with the signal it was given. The test reaches the script through the handlers the
 * controller loaded, so both hold the very same module.
 */
import type { HookCallContext, HookHandlers, HookRequest, HookResponse } from '@scoby/hooks-v1/sdk';

export type ModuleScript = (request: HookRequest, context?: HookCallContext) => unknown;

export interface ModuleCall {
  phase: string;
  instance: string;
  at: number;
  signal: AbortSignal | undefined;
}

export interface ScriptedModule extends Required<HookHandlers> {
  /** By instance name. */
  script: Map<string, ModuleScript>;
  calls: ModuleCall[];
}

function answer(request: HookRequest, context?: HookCallContext): unknown {
  handlers.calls.push({
    phase: request.phase,
    instance: request.object.metadata.name ?? '',
    at: Date.now(),
    signal: context?.signal,
  });
  return handlers.script.get(request.object.metadata.name ?? '')?.(request, context);
}

const handlers: ScriptedModule = {
  script: new Map(),
  calls: [],
  preReconcile: (request, context) => answer(request, context) as HookResponse | Promise<HookResponse>,
  finalize: async (request, context) => {
    await answer(request, context);
  },
};

export default handlers;
