/** The controller's side of the v1 contract: one call in, one HookResult out, never a throw. */
import { AnswerBudget } from './answer-budget.ts';
import { readErrorBody } from './error-body.ts';
import {
  httpErrorMessage,
  invalidResponseMessage,
  timeoutMessage,
  transportErrorMessage,
} from './messages.ts';
import { hookPhase } from './phases.ts';
import { buildRequestBody } from './request-body.ts';
import { honoursRetryAfter, parseRetryAfter } from './retry-after.ts';
import type { HookHandlers } from './dispatch.ts';
import { createHttpTransport, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_USER_AGENT } from './http-transport.ts';
import { createModuleTransport } from './module-transport.ts';
import { readSuccessBody } from './success-body.ts';
import { describeError, type HookTransport, type TransportOutcome } from './transport.ts';
import type { FormFactorFormat, HookCall, HookFailure, HookFailureOutcome, HookResult } from './types.ts';

export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_USER_AGENT };
/** The scheme of an in-process hook's URL: `module:<name>` (docs/spec/hooks-v1.md §10). */
export const MODULE_URL_SCHEME = 'module:';

/** The URL published for the hook of `spec.hook.module: <name>`. */
export function moduleHookUrl(name: string): string {
  return `${MODULE_URL_SCHEME}${name}`;
}

export interface HookClientOptions {
  userAgent?: string;
  maxResponseBytes?: number;
  /** The memory all answers being read and parsed may hold; share one per process. */
  answerBudget?: AnswerBudget;
  formFactorFormat?: FormFactorFormat;
  /** Clock for Retry-After HTTP-dates, in epoch milliseconds. */
  now?: () => number;
  /** The in-process hooks the operator allowed and the process loaded, by module name. */
  modules?: ReadonlyMap<string, HookHandlers>;
}

export interface HookClient {
  /** Rejects with an AbortError (and only then) when the call was cut by cutCalls. */
  call(call: HookCall): Promise<HookResult>;
  /**
   * Cuts every call in flight and every later one: they reject with an AbortError instead of
   * waiting for their hook (up to its timeout). For a stopping process, whose reconciles must not
   * wait on hooks past its grace period.
   */
  cutCalls(): void;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** A hook call cut by HookClient.cutCalls; named AbortError as fetch's is. */
export class HookCallCutError extends Error {
  constructor(call: HookCall) {
    super(`the ${call.phase} call to ${call.url} was cut: the controller is stopping`);
    this.name = 'AbortError';
  }
}

export function createHookClient(options: HookClientOptions = {}): HookClient {
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const http = createHttpTransport({
    maxResponseBytes,
    ...(options.userAgent === undefined ? {} : { userAgent: options.userAgent }),
  });
  const format = options.formFactorFormat ?? 'string';
  const now = options.now ?? Date.now;
  const answerBudget = options.answerBudget ?? new AnswerBudget();
  const cutting = new AbortController();
  const moduleTransports = new Map<string, HookTransport>();
  const moduleTransport = (name: string): HookTransport => {
    let transport = moduleTransports.get(name);
    if (transport === undefined) {
      const handlers = options.modules?.get(name);
      transport =
        handlers === undefined
          ? () =>
              Promise.resolve({ kind: 'failed', cause: `hook module ${JSON.stringify(name)} is not loaded` })
          : createModuleTransport(handlers, format, { maxResponseBytes });
      moduleTransports.set(name, transport);
    }
    return transport;
  };

  async function call(hookCall: HookCall): Promise<HookResult> {
    let payload: string;
    try {
      payload = JSON.stringify(buildRequestBody(hookCall, format));
    } catch (error) {
      return transientFailure(
        transportErrorMessage(hookCall.phase, hookCall.url, describeError(error)),
        'transport-error',
      );
    }
    // Held until the answer is parsed: parsing is where an answer takes the most memory.
    const reservation = answerBudget.reserve(maxResponseBytes);
    try {
      const transport = hookCall.url.startsWith(MODULE_URL_SCHEME)
        ? moduleTransport(hookCall.url.slice(MODULE_URL_SCHEME.length))
        : http.to(hookCall.url);
      const outcome = await transport(payload, {
        timeoutMs: hookCall.timeoutMs,
        reservation,
        signal: cutting.signal,
      });
      if (outcome.kind === 'cut') throw new HookCallCutError(hookCall);
      return interpretOutcome(outcome, hookCall, now());
    } finally {
      reservation.release();
    }
  }

  return {
    call,
    cutCalls() {
      cutting.abort();
    },
    close() {
      http.close();
    },
  };
}

/**
 * What one transport outcome means for the call (§5, §6): the controller's reading of every answer,
 * exported so that `scoby hook check` judges answers with the same code.
 */
export function interpretOutcome(outcome: TransportOutcome, call: HookCall, nowMs: number): HookResult {
  switch (outcome.kind) {
    case 'timeout':
      return transientFailure(timeoutMessage(call.phase, call.url, call.timeoutMs), 'timeout');
    case 'cut':
      throw new HookCallCutError(call);
    case 'failed':
      return transientFailure(transportErrorMessage(call.phase, call.url, outcome.cause), 'transport-error');
    case 'response':
      break;
  }
  const { status, headers, body } = outcome;
  if (status >= 200 && status < 300) {
    // A gate's 2xx only lets the instance go; its body is not read (§7).
    if (hookPhase(call.phase)?.answersWithChanges !== true) return { ok: true };
    const reading = readSuccessBody(body, call);
    return reading.ok
      ? reading
      : transientFailure(invalidResponseMessage(call.phase, reading.detail), 'invalid-answer', status);
  }
  const answer = readErrorBody(body);
  const retryAfterHeader = headers['retry-after'];
  const retryAfterMs = honoursRetryAfter(status) ? parseRetryAfter(retryAfterHeader, nowMs) : undefined;
  const permanent = answer.permanent && retryAfterMs === undefined;
  const failure: HookFailure = {
    ok: false,
    message: httpErrorMessage(call.phase, status, answer.message),
    outcome: 'error-answer',
    permanent,
    continue: answer.continue,
    transient: !permanent,
    status,
  };
  if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  return failure;
}

function transientFailure(message: string, outcome: HookFailureOutcome, status?: number): HookFailure {
  const failure: HookFailure = {
    ok: false,
    message,
    outcome,
    permanent: false,
    continue: false,
    transient: true,
  };
  if (status !== undefined) failure.status = status;
  return failure;
}
