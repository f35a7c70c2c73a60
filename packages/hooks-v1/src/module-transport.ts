/**
 * The in-process transport (docs/spec/hooks-v1.md §10): the request body Scoby would POST is handed to
 * the SDK's dispatch, with the module's handlers, and its answer becomes the TransportOutcome an HTTP
 * hook's would, so one interpretation serves both. The deadline holds for asynchronous handlers: the
 * call resolves at the timeout whatever the handler does, and the handler's signal fires.
 */
import type { AnswerReservation } from './answer-budget.ts';
import { dispatchHookRequest, type HookAnswer, type HookHandlers } from './dispatch.ts';
import { DEFAULT_MAX_RESPONSE_BYTES } from './http-transport.ts';
import type { HookTransport, TransportOutcome } from './transport.ts';
import type { FormFactorFormat } from './types.ts';
import { setLongTimeout } from '@scoby/kube-objects';

/** The path the handlers are dispatched on; an in-process call has no URL path of its own. */
const MODULE_PATH = '/';

export interface ModuleTransportOptions {
  /** An answer larger than this is a transport error, as an HTTP body would be (default 16 MiB). */
  maxResponseBytes?: number;
}

export function createModuleTransport(
  handlers: HookHandlers,
  formFactorFormat: FormFactorFormat,
  options: ModuleTransportOptions = {},
): HookTransport {
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const dispatchOptions = { ...handlers, path: MODULE_PATH, formFactorFormat };
  return (payload, call) => {
    if (call.signal?.aborted) return Promise.resolve({ kind: 'cut' });
    const stop = new AbortController();
    return new Promise<TransportOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: TransportOutcome): void => {
        if (settled) return;
        settled = true;
        cancelDeadline();
        call.signal?.removeEventListener('abort', cut);
        resolve(outcome);
      };
      const abandon = (outcome: TransportOutcome): void => {
        settle(outcome);
        stop.abort();
      };
      const cut = (): void => abandon({ kind: 'cut' });
      const cancelDeadline = setLongTimeout(() => abandon({ kind: 'timeout' }), call.timeoutMs);
      call.signal?.addEventListener('abort', cut, { once: true });
      dispatchHookRequest(
        { method: 'POST', pathname: MODULE_PATH, body: payload, signal: stop.signal },
        dispatchOptions,
      )
        .then((answer) => admit(answer, maxResponseBytes, call.reservation))
        .then(settle, (error: unknown) => settle({ kind: 'failed', cause: String(error) }));
    });
  };
}

/** The answer as an HTTP client would have received it: lower-case header names, a body string. */
async function admit(
  answer: HookAnswer,
  maxResponseBytes: number,
  reservation: AnswerReservation | undefined,
): Promise<TransportOutcome> {
  const body = answer.body ?? '';
  const bytes = Buffer.byteLength(body);
  if (bytes > maxResponseBytes) {
    return { kind: 'failed', cause: `response body larger than ${maxResponseBytes} bytes` };
  }
  const admission = reservation?.announce(bytes);
  if (admission?.kind === 'refuse') return { kind: 'failed', cause: admission.cause };
  if (admission?.kind === 'wait') await admission.admitted;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) headers[name.toLowerCase()] = value;
  return { kind: 'response', status: answer.status, headers, body };
}
