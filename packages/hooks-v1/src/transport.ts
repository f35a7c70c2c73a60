/**
 * One POST with a deadline covering connection, request and the complete response body, and a
 * cap on the response size (docs/spec/hooks-v1.md §2). Redirects are never followed: node:http does not.
 */
import http from 'node:http';
import https from 'node:https';
import type { Admission, AnswerReservation } from './answer-budget.ts';
import { setLongTimeout } from '@scoby/kube-objects';

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Idle sockets are dropped after this long unless the server announces a shorter `Keep-Alive:
 * timeout`, so a connection the server has already closed is rarely reused (a reset call).
 */
const IDLE_SOCKET_TIMEOUT_MS = 4000;

export function createKeepAliveAgents(): Agents {
  const options = { keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

export interface PostOptions {
  agents: Agents;
  headers: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Pays for the response body in the process-wide answer budget as it arrives. */
  reservation: AnswerReservation;
  /** Cuts the call (its connection destroyed) when it fires: the outcome is `cut`. */
  signal?: AbortSignal;
}

/** What one call may say besides its payload. */
export interface TransportCallOptions {
  timeoutMs: number;
  /** Cuts the call when it fires: the outcome is `cut`. */
  signal?: AbortSignal;
  /** Pays for the answer in a process-wide answer budget as it arrives. */
  reservation?: AnswerReservation;
}

/** Sends one request body to a hook, over HTTP or in-process, and resolves with what came back; never rejects. */
export type HookTransport = (payload: string, options: TransportCallOptions) => Promise<TransportOutcome>;

export type TransportOutcome =
  | { kind: 'response'; status: number; headers: http.IncomingHttpHeaders; body: string }
  | { kind: 'timeout' }
  | { kind: 'cut' }
  | { kind: 'failed'; cause: string };

export function postJson(target: string, payload: string, options: PostOptions): Promise<TransportOutcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      resolve({ kind: 'failed', cause: 'invalid URL' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      resolve({ kind: 'failed', cause: `unsupported protocol ${JSON.stringify(url.protocol)}` });
      return;
    }

    if (options.signal?.aborted) {
      resolve({ kind: 'cut' });
      return;
    }
    let settled = false;
    const settle = (outcome: TransportOutcome): void => {
      if (settled) return;
      settled = true;
      cancelDeadline();
      options.signal?.removeEventListener('abort', cut);
      resolve(outcome);
    };
    const cut = (): void => abandon({ kind: 'cut' });
    const abandon = (outcome: TransportOutcome): void => {
      settle(outcome);
      request.destroy();
    };
    const cancelDeadline = setLongTimeout(() => abandon({ kind: 'timeout' }), options.timeoutMs);
    const tooLarge: TransportOutcome = {
      kind: 'failed',
      cause: `response body larger than ${options.maxResponseBytes} bytes`,
    };

    let responding = false;
    const send = url.protocol === 'https:' ? https.request : http.request;
    let request: http.ClientRequest;
    // A request is sent once more, on a new connection, when the kept-alive connection it went out on
    // turns out closed by the server before any byte of an answer (§2): the hook never received it.
    const open = (mayResend: boolean): void => {
      const sent = send(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? options.agents.https : options.agents.http,
          headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(payload)) },
        },
        (response) => {
          responding = true;
          const announced = Number(response.headers['content-length']);
          if (announced > options.maxResponseBytes) {
            abandon(tooLarge);
            return;
          }
          // Reading pauses while the answer waits for its share of the answer budget.
          let admission: Promise<void> | undefined;
          const proceed = (next: Admission): boolean => {
            if (next.kind === 'refuse') {
              abandon({ kind: 'failed', cause: next.cause });
              return false;
            }
            if (next.kind === 'wait') {
              response.pause();
              admission = next.admitted.then(() => {
                admission = undefined;
                if (!settled) response.resume();
              });
            }
            return true;
          };
          if (Number.isFinite(announced) && !proceed(options.reservation.announce(announced))) return;
          const chunks: Buffer[] = [];
          let received = 0;
          let complete = false;
          response.on('data', (chunk: Buffer) => {
            if (settled) return;
            received += chunk.length;
            if (received > options.maxResponseBytes) abandon(tooLarge);
            else if (proceed(options.reservation.receive(chunk, received))) chunks.push(chunk);
          });
          response.on('end', () => {
            complete = true;
            const deliver = (): void => {
              if (settled) return;
              const body = Buffer.concat(chunks).toString('utf8');
              chunks.length = 0;
              settle({ kind: 'response', status: response.statusCode ?? 0, headers: response.headers, body });
            };
            if (admission === undefined) deliver();
            else void admission.then(deliver);
          });
          response.on('error', (error) => settle(brokenResponse(error)));
          response.on('close', () => {
            if (!complete)
              settle({ kind: 'failed', cause: 'connection closed before the response was complete' });
          });
        },
      );
      request = sent;
      sent.on('error', (error) => {
        if (!responding && mayResend && !settled && sent.reusedSocket && isReset(error)) {
          open(false);
          return;
        }
        settle(responding ? brokenResponse(error) : { kind: 'failed', cause: describeError(error) });
      });
      sent.end(payload);
    };
    options.signal?.addEventListener('abort', cut, { once: true });
    open(true);
  });
}

/** A connection closed by its other end: "socket hang up" and "read ECONNRESET" alike. */
function isReset(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ECONNRESET';
}

/**
 * A connection that breaks while the answer arrives: Node 20 reports it on the response as "aborted",
 * Node 24 on the request as "read ECONNRESET"; the code is the same, so the message is too.
 */
function brokenResponse(error: unknown): TransportOutcome {
  const code = (error as NodeJS.ErrnoException).code ?? describeError(error);
  return { kind: 'failed', cause: `connection broke before the response was complete (${code})` };
}

/** Node reports a refused dual-stack connection as an AggregateError with an empty message. */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(describeError).join('; ');
  }
  if (error instanceof Error) {
    return error.message || (error as NodeJS.ErrnoException).code || error.name;
  }
  return String(error);
}
