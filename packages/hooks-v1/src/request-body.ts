/** The JSON body Scoby sends (docs/spec/hooks-v1.md §3). */
import type { KubeObject } from '@scoby/kube-objects';
import { hookPhase } from './phases.ts';
import type { FormFactorFormat, HookCall } from './types.ts';

export interface HookRequestBody {
  formFactor: string | { name: string };
  phase: HookCall['phase'];
  object: KubeObject;
  children?: Record<string, KubeObject>;
}

export function buildRequestBody(call: HookCall, format: FormFactorFormat): HookRequestBody {
  const { managedFields: _managedFields, ...metadata } = call.object.metadata;
  const body: HookRequestBody = {
    formFactor: format === 'object' ? { name: call.formFactor } : call.formFactor,
    phase: call.phase,
    object: { ...call.object, metadata },
  };
  // Only a phase answered with changes is sent the children it may change (§3).
  if (hookPhase(call.phase)?.answersWithChanges === true && call.children !== undefined)
    body.children = call.children;
  return body;
}
