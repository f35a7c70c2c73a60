/**
 * Fencing, timed by hand: a leader cut off from the API server refuses writes from the renew
 * deadline on, counted from the start of its last successful renewal, and that is always before
 * a standby may take the lease (one lease duration after it last saw the lease change).
 */
import type { V1Lease } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { LeaderElector, type LeaseClient } from '../../src/leader-election/leader-elector.ts';
import { ManualClock } from '../../src/testing/manual-clock.ts';

/** One Lease kept in memory with resourceVersion checks, reachable or cut off per candidate. */
class LeaseStore {
  lease: V1Lease | undefined;
  #version = 0;
  readonly #cutOff = new Set<string>();

  cutOff(identity: string): void {
    this.#cutOff.add(identity);
  }

  clientFor(identity: string): LeaseClient {
    // A cut-off candidate's calls are never answered, as behind a network partition.
    const answer = <T>(value: () => T): Promise<T> =>
      this.#cutOff.has(identity) ? new Promise<T>(() => {}) : Promise.resolve().then(value);
    const notFound = Object.assign(new Error('not found'), { code: 404 });
    const conflict = Object.assign(new Error('conflict'), { code: 409 });
    return {
      readNamespacedLease: () =>
        answer(() => {
          if (this.lease === undefined) throw notFound;
          return structuredClone(this.lease);
        }),
      createNamespacedLease: ({ body }) => answer(() => this.#store(body)),
      replaceNamespacedLease: ({ body }) =>
        answer(() => {
          if (body.metadata?.resourceVersion !== this.lease?.metadata?.resourceVersion) throw conflict;
          return this.#store(body);
        }),
    };
  }

  #store(body: V1Lease): V1Lease {
    this.#version += 1;
    this.lease = JSON.parse(
      JSON.stringify({ ...body, metadata: { ...body.metadata, resourceVersion: String(this.#version) } }),
    ) as V1Lease;
    return structuredClone(this.lease);
  }
}

function elector(store: LeaseStore, identity: string, clock: ManualClock, log: string[]): LeaderElector {
  return new LeaderElector({
    client: store.clientFor(identity),
    namespace: 'scoby',
    name: 'leader',
    identity,
    clock,
    onStartedLeading: () => log.push(`${clock.now()} ${identity} started`),
    onStoppedLeading: (reason) => log.push(`${clock.now()} ${identity} stopped: ${reason}`),
  });
}

describe('LeaderElector write fence (client-go timings: lease 15 s, renew deadline 10 s, retry 2 s)', () => {
  it('closes at the renew deadline of a cut-off leader, five seconds before a standby takes over', async () => {
    const clock = new ManualClock(1_000_000);
    const store = new LeaseStore();
    const log: string[] = [];
    const a = elector(store, 'a', clock, log);
    const b = elector(store, 'b', clock, log);
    expect(a.writeRefusal()).toBe('this process is not the leader');
    a.start();
    await clock.advance(0);
    b.start();
    await clock.advance(0);
    expect(a.writeRefusal()).toBeUndefined();

    // Renewals at +2 s and +4 s succeed; from +5 s on, a's calls are never answered.
    await clock.advance(5000);
    store.cutOff('a');
    await clock.advance(8999);
    expect(a.writeRefusal()).toBeUndefined();
    await clock.advance(1);
    expect(a.writeRefusal()).toBe(
      'this process stopped leading: the lease was not renewed within the renew deadline of 10000 ms',
    );
    expect(a.isLeader()).toBe(false);

    await clock.advance(20_000);
    expect(log).toEqual([
      '1000000 a started',
      '1014000 a stopped: the lease was not renewed within the renew deadline of 10000 ms',
      // b last saw the lease change with the renewal of +4 s (read at +4 s), so +19 s at the
      // earliest; its next poll is at +20 s.
      '1020000 b started',
    ]);
    expect(b.writeRefusal()).toBeUndefined();
    await b.stop();
    // a's last call is never answered, so its loop never ends: stop it without waiting.
    void a.stop();
  });

  it('closes the fence by time even before the step-down timer has run', async () => {
    const clock = new ManualClock();
    const store = new LeaseStore();
    const a = elector(store, 'a', clock, []);
    a.start();
    await clock.advance(0);
    store.cutOff('a');
    // A clock that jumps without firing timers, as a busy event loop would delay them.
    const monotonic = clock.monotonic.bind(clock);
    clock.monotonic = () => monotonic() + 10_000;
    expect(a.isLeader()).toBe(true);
    expect(a.writeRefusal()).toBe(
      'the leader lease was last renewed 10000 ms ago, past the renew deadline of 10000 ms',
    );
    clock.monotonic = monotonic;
    void a.stop();
  });
});
