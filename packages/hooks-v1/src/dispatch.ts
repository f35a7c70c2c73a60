/**
 * The hook author's side of the contract as a function from an HTTP request to an HTTP answer:
 * routing, request validation, handler results and thrown errors mapped to v1 bodies.
 */
import { HookError } from './hook-error.ts';
import { parseJson } from './json.ts';
import { hookPhase, type BuiltInHookPhase, type HookPhaseDescriptor } from './phases.ts';
import { validateHookRequest, validateHookResponse } from './schemas.ts';
import type { FormFactorFormat, HookErrorBody, HookRequest, HookResponse } from './types.ts';

/** What a handler is told beside the request. */
export interface HookCallContext {
  /**
   * Fires when Scoby stops waiting: the call's timeout passed, the controller is stopping, or (over
   * HTTP) the client went away. An asynchronous handler should stop its work then; its answer is
   * no longer read.
   */
  signal: AbortSignal;
}

/**
 * A handler of a phase whose answer may change the instance's status and children (its row says
 * `answersWithChanges`, e.g. preReconcile): it may return changed children and status; nothing (or
 * {}) means "no change".
 */
export type ChangingHookHandler = HandlerMethods['changing'];

/** A handler of a phase that gates a deletion (e.g. finalize): returning lets the instance go; throwing a HookError holds it. */
export type GatingHookHandler = HandlerMethods['gating'];

/**
 * Declared as methods so that a handler's parameters are checked as a method's are (bivariantly):
 * one declaring `context: HookCallContext` without `?` is accepted, as SDK users have written them.
 */
interface HandlerMethods {
  changing(
    request: HookRequest,
    context?: HookCallContext,
  ): HookResponse | void | Promise<HookResponse | void>;
  gating(request: HookRequest, context?: HookCallContext): void | Promise<void>;
}

/**
 * One hook implementation, served over HTTP (startHookServer) or in the controller's process (a
 * module named by `spec.hook.module`, docs/spec/hooks-v1.md §10): an optional function per phase,
 * named as the phase's row of the phase table says (phases.ts, `handler`: preReconcile, finalize). The
 * SDK always passes `context`; it is optional in the type so that handlers written, and called in
 * tests, with the request alone keep working.
 */
export type HookHandlers = {
  [Row in BuiltInHookPhase as Row['handler']]?: Row['answersWithChanges'] extends true
    ? ChangingHookHandler
    : GatingHookHandler;
};

export interface DispatchOptions extends HookHandlers {
  /** The path the hook answers on; other paths get 404. */
  path: string;
  formFactorFormat: FormFactorFormat;
}

export interface IncomingHookRequest {
  method: string;
  /** The request path without its query. */
  pathname: string;
  body: string;
  /** Handed to the handler (HookCallContext); default: a signal that never fires. */
  signal?: AbortSignal;
}

export interface HookAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

const NO_CHANGE: HookAnswer = { status: 204, headers: {} };
const NEVER = new AbortController().signal;

export async function dispatchHookRequest(
  incoming: IncomingHookRequest,
  options: DispatchOptions,
): Promise<HookAnswer> {
  if (incoming.pathname !== options.path) {
    return errorAnswer(404, { message: `no hook at ${incoming.pathname}; the hook path is ${options.path}` });
  }
  if (incoming.method !== 'POST') {
    return errorAnswer(
      405,
      { message: `method ${incoming.method} is not allowed; use POST` },
      { Allow: 'POST' },
    );
  }
  const parsed = parseJson(incoming.body);
  if (parsed === undefined) {
    return errorAnswer(400, { message: 'invalid request: body is not valid JSON', permanent: true });
  }
  const problem = validateHookRequest[options.formFactorFormat](parsed);
  if (problem !== undefined) {
    return errorAnswer(400, { message: `invalid request: ${problem}`, permanent: true });
  }
  const request = toHookRequest(parsed as WireRequest);
  const context: HookCallContext = { signal: incoming.signal ?? NEVER };
  try {
    return await answerPhase(request, context, options);
  } catch (error) {
    return thrownAnswer(error);
  }
}

interface WireRequest extends Omit<HookRequest, 'formFactor'> {
  formFactor: string | { name: string };
}

function toHookRequest(wire: WireRequest): HookRequest {
  return {
    ...wire,
    formFactor: typeof wire.formFactor === 'string' ? wire.formFactor : wire.formFactor.name,
  };
}

/**
 * The handler the phase's row names, its result read as the row says: an answer with changes, or a
 * gate's consent. The request validator knows only the table's phases, so the row is there.
 */
async function answerPhase(
  request: HookRequest,
  context: HookCallContext,
  handlers: HookHandlers,
): Promise<HookAnswer> {
  const row = hookPhase(request.phase) as HookPhaseDescriptor;
  // Called as a method of `handlers`, as a handler written with `this` expects.
  const byName = handlers as Record<string, ChangingHookHandler | undefined>;
  const result = await byName[row.handler]?.(request, context);
  return row.answersWithChanges ? changesAnswer(result) : NO_CHANGE;
}

function changesAnswer(result: HookResponse | void): HookAnswer {
  if (result === undefined || result === null) return NO_CHANGE;
  const problem = validateHookResponse(result);
  if (problem !== undefined) {
    return errorAnswer(500, { message: `the hook handler returned an invalid answer: ${problem}` });
  }
  const answer: HookResponse = {};
  if (result.object !== undefined) answer.object = result.object;
  if (result.children !== undefined) answer.children = result.children;
  if (Object.keys(answer).length === 0) return NO_CHANGE;
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(answer) };
}

function thrownAnswer(error: unknown): HookAnswer {
  if (error instanceof HookError) {
    const headers: Record<string, string> =
      error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) };
    return errorAnswer(
      error.status,
      { message: error.message, permanent: error.permanent, continue: error.continue },
      headers,
    );
  }
  return errorAnswer(500, { message: error instanceof Error ? error.message : String(error) });
}

export function errorAnswer(
  status: number,
  body: HookErrorBody,
  headers: Record<string, string> = {},
): HookAnswer {
  const complete = {
    message: body.message ?? '',
    permanent: body.permanent ?? false,
    continue: body.continue ?? false,
  };
  return {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(complete),
  };
}
