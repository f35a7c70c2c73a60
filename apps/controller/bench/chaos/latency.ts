/**
 * Reconcile latency as a user sees it: from the moment the API server took a spec change to the
 * moment the instance's status says `Ready=True` for that generation or a later one. Measured from
 * outside the controller (its own histograms leave out the time an instance waits for a slot),
 * by listing the instances every `pollMs`, so each figure may be up to that much late.
 */
import type { DynamicClient } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';
import { NAMESPACE } from '../world.ts';
import { sleep, type Workload } from './cluster.ts';
import type { TrackedInstance } from './churn.ts';

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of ascending `sorted`; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? NaN : (sorted[sorted.length - 1] as number),
  };
}

export function formatLatency(summary: LatencySummary): string {
  const ms = (value: number) => (Number.isNaN(value) ? '-' : `${Math.round(value)}`);
  return `${ms(summary.p50)} / ${ms(summary.p90)} / ${ms(summary.p99)} / ${ms(summary.max)} ms (${summary.count})`;
}

interface Pending {
  tracked: TrackedInstance;
  generation: number;
  writtenAt: number;
}

function reconciledGeneration(instance: KubeObject): number | undefined {
  const status = instance.status as
    { observedGeneration?: number; conditions?: { type: string; status: string }[] } | undefined;
  const ready = status?.conditions?.find((condition) => condition.type === 'Ready');
  return ready?.status === 'True' ? status?.observedGeneration : undefined;
}

export class ReconcileLatency {
  /** Milliseconds, one per spec change seen reconciled. */
  readonly samples: number[] = [];
  /** When the API server took each of those changes (epoch ms), in the order of `samples`. */
  readonly writtenAt: number[] = [];
  readonly #client: DynamicClient;
  readonly #workloads: readonly Workload[];
  readonly #pollMs: number;
  #pending: Pending[] = [];
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(client: DynamicClient, workloads: readonly Workload[], pollMs: number) {
    this.#client = client;
    this.#workloads = workloads;
    this.#pollMs = pollMs;
  }

  /** The API server took generation `generation` of `tracked` at `writtenAt`. */
  written(tracked: TrackedInstance, generation: number, writtenAt: number): void {
    this.#pending.push({ tracked, generation, writtenAt });
  }

  /** Spec changes not yet seen reconciled (deleted instances left out). */
  get pending(): number {
    return this.#pending.filter((entry) => !entry.tracked.deleted).length;
  }

  start(): void {
    this.#stopped = false;
    this.#running = (async () => {
      while (!this.#stopped) {
        await this.#poll().catch(() => undefined);
        await sleep(this.#pollMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  /** Waits until nothing is pending or `patienceMs` passed. */
  async drain(patienceMs: number): Promise<void> {
    const deadline = Date.now() + patienceMs;
    while (this.pending > 0 && Date.now() < deadline) await sleep(this.#pollMs);
  }

  async #poll(): Promise<void> {
    this.#pending = this.#pending.filter((entry) => !entry.tracked.deleted);
    if (this.#pending.length === 0) return;
    const seenAt = Date.now();
    const reconciled = new Map<string, number>();
    for (const workload of this.#workloads) {
      if (!this.#pending.some((entry) => entry.tracked.workload === workload)) continue;
      for (const item of (await this.#client.list(workload.resource, NAMESPACE)).items) {
        const generation = reconciledGeneration(item);
        if (generation !== undefined) reconciled.set(`${workload.kind}/${item.metadata.name}`, generation);
      }
    }
    this.#pending = this.#pending.filter((entry) => {
      const generation = reconciled.get(`${entry.tracked.workload.kind}/${entry.tracked.name}`);
      if (generation === undefined || generation < entry.generation) return true;
      this.samples.push(seenAt - entry.writtenAt);
      this.writtenAt.push(entry.writtenAt);
      return false;
    });
  }
}
