/** Shapes of the Hooks API v1 wire contract (docs/spec/hooks-v1.md §3, §5, §6) and of the client's results. */
import type { JsonObject, KubeObject } from '@scoby/kube-objects';
import type { BuiltInHookPhase } from './phases.ts';

/** A phase of the spec, as the request names it: one per row of the phase table (phases.ts). */
export type HookPhase = BuiltInHookPhase['phase'];

/** How `formFactor` is written on the wire: a string, or the original Scoby's `{"name": ...}` (§3). */
export type FormFactorFormat = 'string' | 'object';

/** A request as a hook sees it, with `formFactor` always a string whatever the wire format. */
export interface HookRequest {
  formFactor: string;
  phase: HookPhase;
  object: KubeObject;
  /** pre-reconcile only. */
  children?: Record<string, KubeObject>;
}

/** A success answer (§5): both elements optional; absent, null or {} mean "no change". */
export interface HookResponse {
  object?: { status?: JsonObject; [key: string]: unknown } | null;
  children?: Record<string, KubeObject> | null;
}

/** The body of a non-2xx answer (§6.1). */
export interface HookErrorBody {
  message?: string;
  permanent?: boolean;
  continue?: boolean;
}

export interface ManagedKind {
  apiVersion: string;
  kind: string;
}

export interface HookCall {
  url: string;
  timeoutMs: number;
  phase: HookPhase;
  formFactor: string;
  object: KubeObject;
  children?: Record<string, KubeObject>;
  /** The kinds the form factor manages (docs/spec/children-and-status.md §2), for §5.3 rule 3. */
  managedKinds: ManagedKind[];
  instanceNamespace: string;
}

export interface HookSuccess {
  ok: true;
  /** The `status` of the answer's `object`, the only part Scoby takes from it (§5.2). */
  object?: { status: JsonObject };
  /** The validated children map that replaces the one sent; absent when unchanged. */
  children?: Record<string, KubeObject>;
  /** Ignored changes for the `HookObjectChangesIgnored` Event, e.g. ['spec', 'metadata.labels']. */
  objectChangesIgnored?: string[];
}

/**
 * How a call failed (§6.4): at the transport (connection refused, DNS, TLS, reset, an answer over the
 * size limit, a hook module not loaded or throwing), no answer in time, a non-2xx answer, or a 2xx
 * answer Scoby cannot take (malformed body, invalid children).
 */
export type HookFailureOutcome = 'transport-error' | 'timeout' | 'error-answer' | 'invalid-answer';

export interface HookFailure {
  ok: false;
  /** The exact §6.4 message, at most 1024 characters. */
  message: string;
  outcome: HookFailureOutcome;
  /** The instance is to be parked: the hook said `permanent` and no Retry-After overrides it. */
  permanent: boolean;
  /** The hook asked the reconcile to go on as if it had answered 2xx with an empty body. */
  continue: boolean;
  /** The instance is to be retried (always the opposite of `permanent`). */
  transient: boolean;
  /** Delay before the next attempt, from Retry-After on a 429 or 503 (0..1 000 000 ms). */
  retryAfterMs?: number;
  /** The HTTP status code when the hook answered. */
  status?: number;
}

export type HookResult = HookSuccess | HookFailure;
