/**
 * Hooks reached by URL (docs/spec/hooks-v1.md §2): the POST with the client's headers, size cap and
 * deadline over kept-alive connections, as a HookTransport per URL. The controller's client posts to
 * every registration's URL through one of these; `scoby hook check` to one URL.
 */
import { AnswerBudget } from './answer-budget.ts';
import { createKeepAliveAgents, postJson, type HookTransport } from './transport.ts';
import { CLIENT_VERSION } from './version.ts';

export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_USER_AGENT = `scoby-controller/${CLIENT_VERSION}`;

export interface HttpTransportOptions {
  userAgent?: string;
  maxResponseBytes?: number;
}

export interface HttpTransport {
  /** Posts to `url`. A call given no reservation pays in a budget of this transport's own. */
  to(url: string): HookTransport;
  /** Closes the kept-alive connections. */
  close(): void;
}

export function createHttpTransport(options: HttpTransportOptions = {}): HttpTransport {
  const agents = createKeepAliveAgents();
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'User-Agent': options.userAgent ?? DEFAULT_USER_AGENT,
  };
  let ownBudget: AnswerBudget | undefined;
  return {
    to:
      (url) =>
      async (payload, { timeoutMs, signal, reservation }) => {
        // A caller without a process-wide budget makes one call at a time: room for a few answers at the cap.
        const held =
          reservation ??
          (ownBudget ??= new AnswerBudget({ totalBytes: 4 * maxResponseBytes })).reserve(maxResponseBytes);
        try {
          return await postJson(url, payload, {
            agents,
            headers,
            timeoutMs,
            maxResponseBytes,
            reservation: held,
            ...(signal ? { signal } : {}),
          });
        } finally {
          if (held !== reservation) held.release();
        }
      },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export interface UrlTransport {
  send: HookTransport;
  /** Closes the kept-alive connections. */
  close(): void;
}

/** A hook at one URL, for callers that judge raw answers themselves (`scoby hook check`). */
export function createUrlTransport(url: string, options: HttpTransportOptions = {}): UrlTransport {
  const http = createHttpTransport(options);
  return { send: http.to(url), close: () => http.close() };
}
