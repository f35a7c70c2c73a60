/**
 * Reconcile latency as a user sees it: from the moment the API server took a spec change to the
 * moment the instance's status says `Ready=True` for that generation or a later one. Measured from
 * outside the controller (its own histograms leave out the time an instance waits for a slot),
 * by listing the instances every `pollMs`, so each figure may be up to that much late.
 *
 * On a real cluster, given the instances' Deployments, each figure is also cut in three: Scoby took
 * the change (its status names the generation and no failed hook holds it), the Deployment then
 * rolled out (kube-controller-manager's deployment controller and the kubelets', here kwok's, work)
 * and Scoby then wrote Ready. Scoby's share is the first and the last.
 */
import type { V1DeploymentStatus } from '@kubernetes/client-node';
import type { DynamicClient, ResourceRef } from '@scoby/controller-runtime';
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
  /** When Scoby's status first named the generation without a failed hook holding it. */
  takenAt?: number;
  /** When the instance's Deployment was first seen rolled out and available after that. */
  rolledOutAt?: number;
}

/** One change's latency cut at the workload's rollout: the parts add up to the whole. */
export interface LatencyParts {
  /** From the write until Scoby's status named the generation. */
  taken: number;
  /** From then until the Deployment was rolled out and available. */
  rollout: number;
  /** From then until Scoby wrote Ready=True. */
  ready: number;
}

type InstanceStatus = {
  observedGeneration?: number;
  conditions?: { type: string; status: string; reason?: string }[];
};

function reconciledGeneration(instance: KubeObject): number | undefined {
  const status = instance.status as InstanceStatus | undefined;
  const ready = status?.conditions?.find((condition) => condition.type === 'Ready');
  return ready?.status === 'True' ? status?.observedGeneration : undefined;
}

/** The generation Scoby's status names, unless a failed hook call holds the instance. */
function takenGeneration(instance: KubeObject): number | undefined {
  const status = instance.status as InstanceStatus | undefined;
  const ready = status?.conditions?.find((condition) => condition.type === 'Ready');
  return ready?.reason === 'HookFailed' ? undefined : status?.observedGeneration;
}

/** Its controller saw its latest spec, and every replica of that spec is available. */
function rolledOut(deployment: KubeObject): boolean {
  const status = deployment.status as V1DeploymentStatus | undefined;
  const wanted = (deployment.spec as { replicas?: number } | undefined)?.replicas ?? 1;
  return (
    status?.observedGeneration === deployment.metadata.generation &&
    status?.conditions?.some((condition) => condition.type === 'Available' && condition.status === 'True') ===
      true &&
    status.updatedReplicas === wanted &&
    status.availableReplicas === wanted &&
    status.replicas === wanted
  );
}

export class ReconcileLatency {
  /** Milliseconds, one per spec change seen reconciled. */
  readonly samples: number[] = [];
  /** When the API server took each of those changes (epoch ms), in the order of `samples`. */
  readonly writtenAt: number[] = [];
  /** Each sample cut at its Deployment's rollout, in the order of `samples`; only given `deployments`. */
  readonly parts: LatencyParts[] = [];
  readonly #client: DynamicClient;
  readonly #workloads: readonly Workload[];
  readonly #pollMs: number;
  readonly #deployments: ResourceRef | undefined;
  #pending: Pending[] = [];
  #running: Promise<void> | undefined;
  #stopped = false;

  /** `deployments`: where the instances' Deployments are listed, to cut each figure at their rollout. */
  constructor(
    client: DynamicClient,
    workloads: readonly Workload[],
    pollMs: number,
    deployments?: ResourceRef,
  ) {
    this.#client = client;
    this.#workloads = workloads;
    this.#pollMs = pollMs;
    this.#deployments = deployments;
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
        await this.observe().catch(() => undefined);
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

  /** One look at the instances (and Deployments); start() repeats it every `pollMs`. */
  async observe(): Promise<void> {
    this.#pending = this.#pending.filter((entry) => !entry.tracked.deleted);
    if (this.#pending.length === 0) return;
    const seenAt = Date.now();
    const reconciled = new Map<string, number>();
    const taken = new Map<string, number>();
    const uids = new Map<string, string>();
    for (const workload of this.#workloads) {
      if (!this.#pending.some((entry) => entry.tracked.workload === workload)) continue;
      for (const item of (await this.#client.list(workload.resource, NAMESPACE)).items) {
        const key = `${workload.kind}/${item.metadata.name}`;
        const generation = reconciledGeneration(item);
        if (generation !== undefined) reconciled.set(key, generation);
        const took = takenGeneration(item);
        if (took !== undefined) taken.set(key, took);
        if (item.metadata.uid !== undefined) uids.set(item.metadata.uid, key);
      }
    }
    const rolledOutKeys = new Set<string>();
    if (this.#deployments !== undefined && this.#pending.some((entry) => entry.takenAt !== undefined)) {
      for (const deployment of (await this.#client.list(this.#deployments, NAMESPACE)).items) {
        const owner = deployment.metadata.ownerReferences?.find((reference) => reference.controller === true);
        const key = owner && uids.get(owner.uid);
        if (key !== undefined && rolledOut(deployment)) rolledOutKeys.add(key);
      }
    }
    this.#pending = this.#pending.filter((entry) => {
      const key = `${entry.tracked.workload.kind}/${entry.tracked.name}`;
      // A Deployment seen rolled out counts only after Scoby took the change, so it carries it.
      if (entry.takenAt !== undefined && entry.rolledOutAt === undefined && rolledOutKeys.has(key))
        entry.rolledOutAt = seenAt;
      if (entry.takenAt === undefined && (taken.get(key) ?? -1) >= entry.generation) entry.takenAt = seenAt;
      const generation = reconciled.get(key);
      if (generation === undefined || generation < entry.generation) return true;
      this.samples.push(seenAt - entry.writtenAt);
      this.writtenAt.push(entry.writtenAt);
      if (this.#deployments !== undefined) {
        const takenAt = entry.takenAt ?? seenAt;
        const rolledOutAt = entry.rolledOutAt ?? seenAt;
        this.parts.push({
          taken: takenAt - entry.writtenAt,
          rollout: rolledOutAt - takenAt,
          ready: seenAt - rolledOutAt,
        });
      }
      return false;
    });
  }
}
