import type { ResourceType, Verb } from './resource-type.ts';
import { conflictReply, statusReply, type Reply } from './status.ts';

/** Which requests a fault applies to; absent fields match anything. `resource` is the plural (e.g. `deployments`). */
export interface FaultMatch {
  verb?: Verb;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Only this user's requests (the bearer token of its kubeconfig, see `kubeConfig(user)`). */
  user?: string;
}

export interface RequestFacts {
  verb: Verb;
  type: ResourceType;
  subresource: string | undefined;
  namespace: string | undefined;
  name: string | undefined;
}

interface ArmedFault {
  match: Omit<FaultMatch, 'verb'>;
  verbs: readonly Verb[] | undefined;
  remaining: number;
  reply: (request: RequestFacts) => Reply;
}

const REASONS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Expired',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

const NOT_WATCH: readonly Verb[] = ['get', 'list', 'create', 'update', 'patch', 'delete', 'deletecollection'];

function matches(fault: ArmedFault, request: RequestFacts, user: string | undefined): boolean {
  const { match, verbs } = fault;
  return (
    (verbs === undefined || verbs.includes(request.verb)) &&
    (match.user === undefined || match.user === user) &&
    (match.resource === undefined || match.resource === request.type.plural) &&
    (match.subresource === undefined || match.subresource === request.subresource) &&
    (match.namespace === undefined || match.namespace === request.namespace) &&
    (match.name === undefined || match.name === request.name)
  );
}

/** Which clients a black hole swallows, and what becomes of their requests when it heals. */
export interface BlackHoleOptions {
  /** Only this user's requests (the bearer token of its kubeconfig, see `kubeConfig(user)`); absent: every client's. */
  user?: string;
  /**
   * On heal, answer the swallowed requests whose clients still wait, in arrival order, as a
   * partition's delayed packets would arrive. Default false: they are never answered.
   */
  deliverOnHeal?: boolean;
}

interface BlackHole {
  user: string | undefined;
  deliverOnHeal: boolean;
  /** Resolving one serves its swallowed request after all. */
  swallowed: Array<() => void>;
}

/** Hooks the HTTP layer consults; the faults API below arms them. */
export interface FaultHooks {
  latencyMs(): number;
  /**
   * For a request of `user` that a black hole swallows: a promise that settles when the hole heals
   * and the request is to be served after all; it never settles for a request dropped for good.
   * Undefined when no black hole takes the request.
   */
  swallow(user: string | undefined): Promise<void> | undefined;
  /** The injected reply for this request of `user`, if a fault is armed for it (consuming one use). */
  take(request: RequestFacts, user: string | undefined): Reply | undefined;
}

/** Fault injection for reliability tests. */
export interface Faults {
  /** Delay every request by `ms` (0 removes the delay). */
  setLatency(ms: number): void;
  /** The next `count` (default 1) requests matching get HTTP `code` as a Status (reason derived from the code). */
  failNext(match: FaultMatch, options: { code: number; count?: number; message?: string }): void;
  /**
   * Until the returned `stop` is called, every request matching (watches excepted: they are not
   * throttled by priority and fairness either) gets `code` (429 by default, or 503) with a
   * `Retry-After: retryAfterSeconds` header, as kube-apiserver's priority and fairness answers under load.
   */
  throttle(match: FaultMatch, options: { retryAfterSeconds: number; code?: 429 | 503 }): () => void;
  /** The next `count` updates and patches matching get 409 Conflict, as if someone else kept writing. */
  conflictStorm(match: Omit<FaultMatch, 'verb'>, count: number): void;
  /**
   * Requests are read and never answered, as behind a route that drops packets, and the open watches
   * of the clients concerned go silent for good. Returns `heal`: later requests are served again.
   */
  blackHole(options?: BlackHoleOptions): () => void;
  /** Every watch open now stays open but delivers nothing more, not even bookmarks; later watches are healthy. */
  silenceWatches(): void;
  /** Close every open watch now (clients see the stream end). */
  dropWatches(): void;
  /** The next `count` (default 1) watches from a resourceVersion get a 410 Expired ERROR event. */
  expireNextWatch(count?: number): void;
  /** Disarm everything and heal every black hole. */
  reset(): void;
}

export class FaultInjector implements FaultHooks {
  private latency = 0;
  private armed: ArmedFault[] = [];
  private holes: BlackHole[] = [];

  blackHole(options: BlackHoleOptions = {}): () => void {
    const hole: BlackHole = {
      user: options.user,
      deliverOnHeal: options.deliverOnHeal ?? false,
      swallowed: [],
    };
    this.holes.push(hole);
    return () => this.heal(hole);
  }

  swallow(user: string | undefined): Promise<void> | undefined {
    const hole = this.holes.find((candidate) => candidate.user === undefined || candidate.user === user);
    if (hole === undefined) return undefined;
    return new Promise((resolve) => hole.swallowed.push(resolve));
  }

  setLatency(ms: number): void {
    this.latency = ms;
  }

  failNext(match: FaultMatch, options: { code: number; count?: number; message?: string }): void {
    const reason = REASONS[options.code] ?? 'InternalError';
    const message = options.message ?? `injected fault: ${reason}`;
    const { verb, ...where } = match;
    this.armed.push({
      match: where,
      verbs: verb === undefined ? undefined : [verb],
      remaining: options.count ?? 1,
      reply: () => statusReply(options.code, reason, message),
    });
  }

  throttle(match: FaultMatch, options: { retryAfterSeconds: number; code?: 429 | 503 }): () => void {
    const code = options.code ?? 429;
    const reason = REASONS[code] ?? 'TooManyRequests';
    const { verb, ...where } = match;
    const verbs: readonly Verb[] = verb === undefined ? NOT_WATCH : [verb];
    const refused = statusReply(code, reason, 'Too many requests, please try again later.', {
      retryAfterSeconds: options.retryAfterSeconds,
    });
    const fault: ArmedFault = {
      match: where,
      verbs,
      remaining: Number.POSITIVE_INFINITY,
      reply: () => ({ ...refused, headers: { 'Retry-After': String(options.retryAfterSeconds) } }),
    };
    this.armed.push(fault);
    return () => {
      this.armed = this.armed.filter((candidate) => candidate !== fault);
    };
  }

  conflictStorm(match: Omit<FaultMatch, 'verb'>, count: number): void {
    const reply = (request: RequestFacts): Reply => conflictReply(request.type, request.name ?? '');
    this.armed.push({ match, verbs: ['update', 'patch'], remaining: count, reply });
  }

  reset(): void {
    this.latency = 0;
    this.armed = [];
    for (const hole of [...this.holes]) this.heal(hole);
  }

  latencyMs(): number {
    return this.latency;
  }

  private heal(hole: BlackHole): void {
    if (!this.holes.includes(hole)) return;
    this.holes = this.holes.filter((candidate) => candidate !== hole);
    // Dropped requests are let go of, not answered: their clients wait until they give up.
    if (hole.deliverOnHeal) for (const deliver of hole.swallowed) deliver();
    hole.swallowed = [];
  }

  take(request: RequestFacts, user: string | undefined): Reply | undefined {
    const fault = this.armed.find((candidate) => matches(candidate, request, user));
    if (fault === undefined) return undefined;
    fault.remaining--;
    this.armed = this.armed.filter((candidate) => candidate.remaining > 0);
    return fault.reply(request);
  }
}
