/**
 * The harness's users: they create instances, change their specs and delete them, and remember what
 * they asked for, so the invariant checker knows what must hold at the end. Every write is retried
 * until the API server takes it (injected faults hit the harness too); a deleted name is never reused.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { type DynamicClient, isAlreadyExists, isNotFound } from '@scoby/controller-runtime';
import { inParallel } from '../parallel.ts';
import { NAMESPACE } from '../world.ts';
import { sleep, type Workload } from './cluster.ts';
import type { Random } from './random.ts';

export interface TrackedInstance {
  workload: Workload;
  name: string;
  /** `spec.revision` of the last spec the harness wrote. */
  revision: number;
  deleted: boolean;
  /** A spec the controller may refuse (fuzzed): Ready=False with a reason is then acceptable. */
  mayFail?: boolean;
}

const WRITE_PATIENCE_MS = 60_000;
const RETRY_PAUSE_MS = 50;

export function instanceObject(workload: Workload, name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: workload.apiVersion,
    kind: workload.kind,
    metadata: { name, namespace: NAMESPACE },
    spec,
  };
}

export function specAt(name: string, revision: number): Record<string, unknown> {
  return { smtp: { host: `${name}.mail.internal`, port: 587 }, sender: `${name}@example.com`, revision };
}

export class Churn {
  readonly instances: TrackedInstance[] = [];
  readonly counts = { creates: 0, updates: 0, deletes: 0, retries: 0 };
  /** Writes the API server did not take within the patience: the run cannot judge what must hold. */
  readonly failures: string[] = [];
  /** Called when the API server took a spec update, with the generation it stored. */
  onUpdated: ((tracked: TrackedInstance, generation: number, at: number) => void) | undefined;
  readonly #client: DynamicClient;
  readonly #workloads: Workload[];
  readonly #random: Random;
  #sequence = 0;
  readonly #busy = new Set<TrackedInstance>();
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(client: DynamicClient, workloads: Workload[], random: Random) {
    this.#client = client;
    this.#workloads = workloads;
    this.#random = random;
  }

  live(): TrackedInstance[] {
    return this.instances.filter((instance) => !instance.deleted);
  }

  /** `count` instances, spread over the workloads in turn. */
  async seed(count: number): Promise<void> {
    await inParallel(count, 8, (index) =>
      this.create(this.#workloads[index % this.#workloads.length] as Workload),
    );
  }

  async create(workload: Workload, spec?: Record<string, unknown>): Promise<TrackedInstance> {
    const name = `${workload.kind.toLowerCase()}-${this.#sequence++}`;
    const tracked: TrackedInstance = {
      workload,
      name,
      revision: 1,
      deleted: false,
      mayFail: spec !== undefined,
    };
    this.instances.push(tracked);
    // Busy until the API server took it: a delete picked meanwhile would find nothing to delete,
    // and the create's retry would then bring back an instance the harness counts as deleted.
    this.#busy.add(tracked);
    try {
      await this.#write(`create ${name}`, async () => {
        try {
          await this.#client.create(
            workload.resource,
            instanceObject(workload, name, spec ?? specAt(name, 1)),
          );
        } catch (error) {
          // A retried create whose first attempt did land.
          if (!isAlreadyExists(error)) throw error;
        }
      });
    } finally {
      this.#busy.delete(tracked);
    }
    this.counts.creates++;
    return tracked;
  }

  async update(tracked: TrackedInstance): Promise<void> {
    const revision = tracked.revision + 1;
    const stored = await this.#write(`update ${tracked.name}`, () =>
      this.#client.patch(tracked.workload.resource, NAMESPACE, tracked.name, {
        spec: specAt(tracked.name, revision),
      }),
    );
    tracked.revision = revision;
    this.counts.updates++;
    this.onUpdated?.(tracked, stored.metadata.generation ?? 0, Date.now());
  }

  async delete(tracked: TrackedInstance): Promise<void> {
    tracked.deleted = true;
    await this.#write(`delete ${tracked.name}`, async () => {
      try {
        await this.#client.delete(tracked.workload.resource, NAMESPACE, tracked.name);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    });
    this.counts.deletes++;
  }

  /**
   * One operation every `paceMs` until stopped, keeping about `live` instances: below that it
   * creates, otherwise it updates (60 %), deletes (20 %) or creates (20 %); with `updates: false`
   * it deletes (50 %) or creates (50 %). Operations overlap.
   */
  start(options: { paceMs: number; live: number; updates?: boolean }): void {
    this.#stopped = false;
    const inFlight = new Set<Promise<void>>();
    this.#running = (async () => {
      // Each operation starts at its own moment, start + n x pace: a late timer (a busy machine) is
      // caught up on instead of slowing the pace for good.
      const started = Date.now();
      for (let count = 1; !this.#stopped; count++) {
        const operation = this.#step(options.live, options.updates ?? true).catch((error: unknown) => {
          this.failures.push((error as Error).message);
        });
        inFlight.add(operation);
        void operation.finally(() => inFlight.delete(operation));
        await sleep(Math.max(0, started + count * options.paceMs - Date.now()));
      }
      await Promise.all(inFlight);
    })();
  }

  /** Stops and waits for the operations in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  #step(live: number, updates: boolean): Promise<void> {
    const roll = updates ? this.#random.next() : this.#random.next() * 0.4;
    // One operation at a time per instance, so that the last write the harness saw is the stored one.
    const candidates = this.live().filter((instance) => !instance.mayFail && !this.#busy.has(instance));
    if (this.live().length < live || roll < 0.2 || candidates.length === 0) {
      return this.create(this.#random.pick(this.#workloads)).then(() => undefined);
    }
    const target = this.#random.pick(candidates);
    this.#busy.add(target);
    const operation = roll < 0.4 ? this.delete(target) : this.update(target);
    return operation.finally(() => this.#busy.delete(target));
  }

  async #write<T>(what: string, write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + WRITE_PATIENCE_MS;
    for (;;) {
      try {
        return await write();
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`harness could not ${what}: ${(error as Error).message}`);
        this.counts.retries++;
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }
}
