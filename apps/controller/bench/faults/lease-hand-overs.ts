/**
 * The registration Leases each replica acquired, lost or handed over, read from its own log. A
 * replica that loses a registration's Lease stops that registration's informers, and one that
 * acquires it starts new ones, which list anew (docs/spec/registration.md §9.6): the audit log cannot
 * tell such a new informer from a relist of the old one, so the relist judge counts them from here,
 * and a broken run prints them beside what is left.
 */
import type { FaultReplica } from './cluster.ts';

export interface LeaseEvent {
  replica: string;
  /** The replica's user as the audit log names it. */
  user: string;
  registration: string;
  kind: 'acquired' | 'lost' | 'handing over';
  /** Epoch ms. */
  atMs: number;
  /** The log line, with its reason. */
  line: string;
}

const KINDS: ReadonlyArray<[RegExp, LeaseEvent['kind']]> = [
  [/^acquired the Lease of registration /, 'acquired'],
  [/^lost the Lease of registration /, 'lost'],
  [/^handing over registration /, 'handing over'],
];

/** Every replica's Lease events between two moments (epoch ms), in time order. */
export function leaseEvents(
  replicas: readonly Pick<FaultReplica, 'name' | 'user' | 'current'>[],
  fromMs: number,
  toMs: number,
): LeaseEvent[] {
  return replicas
    .flatMap((replica) =>
      replica.current.logs.flatMap((record) => {
        const kind = KINDS.find(([pattern]) => pattern.test(record.msg))?.[1];
        // The controller's logger writes ISO times (pino's isoTime).
        const atMs = Date.parse(String(record.time));
        if (kind === undefined || typeof record.registration !== 'string') return [];
        if (!(atMs >= fromMs && atMs <= toMs)) return [];
        const reason = typeof record.reason === 'string' ? `: ${record.reason}` : '';
        return [
          {
            replica: replica.name,
            user: replica.user,
            registration: record.registration,
            kind,
            atMs,
            line: `${record.msg}${reason}`,
          },
        ];
      }),
    )
    .sort((a, b) => a.atMs - b.atMs);
}

/** One line per event, its time counted from `fromMs`. */
export function leaseLines(events: readonly LeaseEvent[], fromMs: number): string[] {
  return events.map(
    (event) => `${event.replica} +${((event.atMs - fromMs) / 1000).toFixed(1)} s ${event.line}`,
  );
}

/**
 * The registrations whose work an informer (audit-judge.ts informerOf: user, resource, namespace,
 * selector) serves: those of its instances' resource, and those its child selector names.
 */
export function informerRegistrations(
  informer: string,
  registrationOfResource: ReadonlyMap<string, string>,
): string[] {
  const [, resource = ''] = informer.split(' ');
  const named = /app\.kubernetes\.io\/name in \(([^)]*)\)/.exec(informer)?.[1];
  const registrations = new Set(named === undefined ? [] : named.split(','));
  const own = registrationOfResource.get(resource);
  if (own !== undefined) registrations.add(own);
  return [...registrations];
}

/** How many times the informer's replica took up a registration it serves, among `events`: new informers. */
export function informerStarts(
  informer: string,
  events: readonly LeaseEvent[],
  registrationOfResource: ReadonlyMap<string, string>,
): number {
  const served = informerRegistrations(informer, registrationOfResource);
  return events.filter(
    (event) =>
      event.kind === 'acquired' &&
      informer.startsWith(`${event.user} `) &&
      served.includes(event.registration),
  ).length;
}
