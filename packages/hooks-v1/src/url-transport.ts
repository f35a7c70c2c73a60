/**
 * A hook reached by URL as one function from a request payload to a transport outcome: the POST the
 * client makes (docs/spec/hooks-v1.md §2), with the client's headers, size cap and deadline, for callers
 * that judge raw answers themselves (`scoby hook check`).
 */
import { AnswerBudget } from './answer-budget.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_USER_AGENT } from './client.ts';
import { createKeepAliveAgents, postJson, type TransportOutcome } from './transport.ts';

export interface TransportCallOptions {
  timeoutMs: number;
  /** Cuts the call when it fires: the outcome is `cut`. */
  signal?: AbortSignal;
}

/** Sends one request body to a hook and resolves with what came back; never rejects. */
export type HookTransport = (payload: string, options: TransportCallOptions) => Promise<TransportOutcome>;

export interface UrlTransport {
  send: HookTransport;
  /** Closes the kept-alive connections. */
  close(): void;
}

export interface UrlTransportOptions {
  userAgent?: string;
  maxResponseBytes?: number;
}

export function createUrlTransport(url: string, options: UrlTransportOptions = {}): UrlTransport {
  const agents = createKeepAliveAgents();
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': options.userAgent ?? DEFAULT_USER_AGENT,
  };
  // One caller, one call at a time: a budget of its own, as large as one answer at the cap.
  const answerBudget = new AnswerBudget({ totalBytes: 4 * maxResponseBytes });
  return {
    async send(payload, { timeoutMs, signal }) {
      const reservation = answerBudget.reserve(maxResponseBytes);
      try {
        return await postJson(url, payload, {
          agents,
          headers,
          timeoutMs,
          maxResponseBytes,
          reservation,
          ...(signal ? { signal } : {}),
        });
      } finally {
        reservation.release();
      }
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
