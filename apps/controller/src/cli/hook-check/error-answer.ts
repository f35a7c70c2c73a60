/**
 * What a non-2xx answer tells Scoby beyond its status (docs/spec/hooks-v1.md §6.1, §6.4): the findings
 * on an error body and a Retry-After header that Scoby would read as less than the hook meant.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '@scoby/hooks-v1/client';
import type { Finding } from './check-types.ts';

const BODY = 'hooks-v1.md §6.1';
const RETRY_AFTER = 'hooks-v1.md §6.4';
const FLAGS = ['permanent', 'continue'] as const;

function warn(section: string, message: string): Finding {
  return { result: 'warn', section, message };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function errorBodyFindings(status: number, body: string): Finding[] {
  if (body.trim() === '') {
    return [
      warn(
        BODY,
        `the HTTP ${status} answer has an empty body: the condition says only "HTTP ${status}"; answer {"message": "<why>"}`,
      ),
    ];
  }
  const value = parsed(body);
  if (value === undefined) return []; // plain text is the message (§6.1)
  if (!isJsonObject(value)) {
    return [
      warn(
        BODY,
        'the error body is JSON but not an object: Scoby takes its text as the message, and permanent and continue as false',
      ),
    ];
  }
  const findings: Finding[] = [];
  if (typeof value.message !== 'string' || value.message.trim() === '') {
    findings.push(
      warn(
        BODY,
        `the error body has no message: the condition says only "HTTP ${status}"; add "message": "<why>"`,
      ),
    );
  }
  for (const flag of FLAGS) {
    if (value[flag] !== undefined && typeof value[flag] !== 'boolean') {
      findings.push(
        warn(BODY, `"${flag}" is ${JSON.stringify(value[flag])}, not a boolean: Scoby reads it as false`),
      );
    }
  }
  return findings;
}

export function retryAfterFindings(
  status: number,
  headers: IncomingHttpHeaders,
  body: string,
  nowMs: number,
): Finding[] {
  const header = headers['retry-after'];
  if (header === undefined) return [];
  if (status !== 429 && status !== 503) {
    return [
      warn(
        RETRY_AFTER,
        `Retry-After is honoured on 429 and 503 answers only; HTTP ${status} is retried with backoff`,
      ),
    ];
  }
  const delayMs = parseRetryAfter(header, nowMs);
  if (delayMs === undefined) {
    return [
      warn(
        RETRY_AFTER,
        `Retry-After ${JSON.stringify(header)} is neither delta-seconds nor an HTTP-date: Scoby retries with its backoff instead`,
      ),
    ];
  }
  const findings: Finding[] = [];
  if (delayMs === MAX_RETRY_AFTER_MS && /^\d+$/.test(header.trim()) && Number(header.trim()) > 1000) {
    findings.push(warn(RETRY_AFTER, `Retry-After ${header} is more than 1000 s: Scoby waits 1000 s`));
  }
  const value = parsed(body);
  if (isJsonObject(value) && value.permanent === true && value.continue !== true) {
    findings.push(
      warn(
        RETRY_AFTER,
        'permanent: true with a valid Retry-After on a 429 or 503 is transient: Scoby retries',
      ),
    );
  }
  return findings;
}

/**
 * A 2xx answer shaped as an error body: Scoby reads it as success (§5.1 ignores other keys; a finalize
 * answer's body is not read), so whatever the hook meant to refuse goes ahead.
 */
export function errorShapedSuccessFindings(status: number, body: string): Finding[] {
  const value = parsed(body);
  if (!isJsonObject(value) || value.object !== undefined || value.children !== undefined) return [];
  if (!['message', 'permanent', 'continue'].some((key) => value[key] !== undefined)) return [];
  return [
    warn(
      'hooks-v1.md §5.1, §6',
      `HTTP ${status} with an error body: a 2xx status is a success whatever the body says; answer errors with a non-2xx status`,
    ),
  ];
}
