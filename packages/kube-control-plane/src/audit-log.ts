/**
 * Reads kube-apiserver's JSON audit log (audit-policy.ts): one event per line, in the order the API
 * server wrote them.
 */
import { open, readFile } from 'node:fs/promises';

export interface AuditObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

export interface AuditEntry {
  auditID: string;
  /** ResponseComplete, ResponseStarted (watches) or Panic. */
  stage: string;
  /** The authenticated user, e.g. system:serviceaccount:scoby-ha:replica-0. */
  user: string;
  verb: string;
  requestURI: string;
  objectRef?: AuditObjectRef;
  /** The response's HTTP status; absent at ResponseStarted. */
  code?: number;
  /** RFC 3339 with microseconds, UTC, as the API server writes them. */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  userAgent?: string;
  /** The request's body as the API server decoded it, at level Request (the policy's Lease writes). */
  requestObject?: unknown;
  /** The object the API server answered, at level RequestResponse (auditPolicy's `bodies`). */
  responseObject?: unknown;
}

/** Verbs that change stored state (the audit log's verbs, not HTTP methods). */
export const WRITE_VERBS: ReadonlySet<string> = new Set([
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
]);

interface RawEvent {
  auditID?: string;
  stage?: string;
  user?: { username?: string };
  verb?: string;
  requestURI?: string;
  objectRef?: AuditObjectRef;
  responseStatus?: { code?: number };
  requestReceivedTimestamp?: string;
  stageTimestamp?: string;
  userAgent?: string;
  requestObject?: unknown;
  responseObject?: unknown;
}

/**
 * The events of `text`. A last line without its newline is an event still being written and is left
 * for the next read; any other line that is not an event is an error (the file is not an audit log).
 */
export function parseAuditLog(text: string): AuditEntry[] {
  // After the last newline: nothing, or the event being written.
  const complete = text.split('\n').slice(0, -1);
  return complete.filter((line) => line.trim() !== '').map(toEntry);
}

function toEntry(line: string): AuditEntry {
  const event = JSON.parse(line) as RawEvent;
  if (event.auditID === undefined || event.stage === undefined || event.verb === undefined) {
    throw new Error(`not an audit event: ${line.slice(0, 200)}`);
  }
  return {
    auditID: event.auditID,
    stage: event.stage,
    user: event.user?.username ?? '',
    verb: event.verb,
    requestURI: event.requestURI ?? '',
    ...(event.objectRef === undefined ? {} : { objectRef: event.objectRef }),
    ...(event.responseStatus?.code === undefined ? {} : { code: event.responseStatus.code }),
    requestReceivedTimestamp: event.requestReceivedTimestamp ?? '',
    stageTimestamp: event.stageTimestamp ?? '',
    ...(event.userAgent === undefined ? {} : { userAgent: event.userAgent }),
    ...(event.requestObject === undefined ? {} : { requestObject: event.requestObject }),
    ...(event.responseObject === undefined ? {} : { responseObject: event.responseObject }),
  };
}

/** Every complete event in the file; none while the API server has not created it yet. */
export async function readAuditLog(path: string): Promise<AuditEntry[]> {
  try {
    return parseAuditLog(await readFile(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Microseconds since the epoch of an audit timestamp (2025-01-02T03:04:05.123456Z): Date keeps only
 * milliseconds, and ordering two requests of one process often needs the rest.
 */
export function auditMicros(timestamp: string): number {
  const match = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(timestamp);
  if (match === null) throw new Error(`not an audit timestamp: "${timestamp}"`);
  const seconds = Date.parse(`${match[1]}Z`);
  if (Number.isNaN(seconds)) throw new Error(`not an audit timestamp: "${timestamp}"`);
  const fraction = (match[2] ?? '').padEnd(6, '0').slice(0, 6);
  return seconds * 1000 + Number(fraction);
}

/**
 * Follows the audit log as the API server writes it: each read() returns the events completed since
 * the last one, reading only the bytes added (a soak's log grows to hundreds of MB, more than one
 * string may hold).
 */
export class AuditTail {
  readonly #path: string;
  #offset = 0;

  constructor(path: string) {
    this.#path = path;
  }

  async read(): Promise<AuditEntry[]> {
    let file;
    try {
      file = await open(this.#path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    try {
      const { size } = await file.stat();
      if (size <= this.#offset) return [];
      const chunk = Buffer.alloc(size - this.#offset);
      const { bytesRead } = await file.read(chunk, 0, chunk.length, this.#offset);
      const text = chunk.subarray(0, bytesRead);
      // Up to the last newline: after it, an event still being written.
      const end = text.lastIndexOf(0x0a) + 1;
      this.#offset += end;
      return parseAuditLog(text.subarray(0, end).toString('utf8'));
    } finally {
      await file.close();
    }
  }
}
