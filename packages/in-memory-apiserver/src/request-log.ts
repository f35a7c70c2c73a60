/** One request as the server saw it, for assertions in tests. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** Who sent it: the bearer token of the client's kubeconfig; undefined without one. */
  user: string | undefined;
  query: Record<string, string>;
  contentType: string | undefined;
  /** The User-Agent header; undefined without one. */
  userAgent: string | undefined;
  /** Parsed JSON (or YAML for apply patches) when it parses, the raw text otherwise; undefined without a body. */
  body: unknown;
  code: number;
  /** The reply was an injected fault (faults.failNext, conflictStorm), not the server's own answer. */
  injected: boolean;
}

export interface RequestLog {
  entries(): RequestLogEntry[];
  clear(): void;
}

/** Keeps the most recent `limit` requests. */
export class BoundedRequestLog implements RequestLog {
  private log: RequestLogEntry[] = [];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  add(entry: RequestLogEntry): void {
    this.log.push(entry);
    if (this.log.length > this.limit) this.log.shift();
  }

  entries(): RequestLogEntry[] {
    return [...this.log];
  }

  clear(): void {
    this.log = [];
  }
}
