/**
 * How long after its workload an instance says Ready (docs/spec/children-and-status.md §9): per
 * instance, its `Ready` condition's lastTransitionTime less its Deployment's `Available`
 * lastTransitionTime, as the two objects carry them (whole seconds, so a lag is exact to a second).
 * The Deployment is the one the instance controls (its controller owner reference).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { summarize, type LatencySummary } from './chaos/latency.ts';

export interface ReadyLag {
  instance: string;
  /** Epoch milliseconds of the Deployment's Available=True. */
  availableAt: number;
  /** Epoch milliseconds of the instance's Ready=True. */
  readyAt: number;
  lagSeconds: number;
}

interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
}

/** When the object's condition `type` became True; undefined unless it is True with a time. */
export function trueSince(object: KubeObject, type: string): number | undefined {
  const conditions = (object.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  const condition = conditions.find((candidate) => candidate.type === type);
  if (condition?.status !== 'True' || condition.lastTransitionTime === undefined) return undefined;
  const at = Date.parse(condition.lastTransitionTime);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * The lag of every instance that is Ready with an Available Deployment, in the order the
 * Deployments became Available (then by name): the first is the first instance's.
 */
export function readyLags(instances: readonly KubeObject[], deployments: readonly KubeObject[]): ReadyLag[] {
  const availableByOwner = new Map<string, number>();
  for (const deployment of deployments) {
    const owner = (deployment.metadata.ownerReferences ?? []).find((reference) => reference.controller);
    const availableAt = trueSince(deployment, 'Available');
    if (owner?.uid !== undefined && availableAt !== undefined) availableByOwner.set(owner.uid, availableAt);
  }
  const lags: ReadyLag[] = [];
  for (const instance of instances) {
    const availableAt = availableByOwner.get(instance.metadata.uid ?? '');
    const readyAt = trueSince(instance, 'Ready');
    if (availableAt === undefined || readyAt === undefined) continue;
    const name = `${instance.metadata.namespace ?? ''}/${instance.metadata.name ?? ''}`;
    lags.push({ instance: name, availableAt, readyAt, lagSeconds: (readyAt - availableAt) / 1000 });
  }
  return lags.sort((a, b) => a.availableAt - b.availableAt || a.instance.localeCompare(b.instance));
}

export function lagSummary(lags: readonly ReadyLag[]): LatencySummary {
  return summarize(lags.map((lag) => lag.lagSeconds));
}

/** `p50 / p90 / p99 / max s (count), first instance n s`. */
export function formatLags(lags: readonly ReadyLag[]): string {
  const summary = lagSummary(lags);
  const seconds = (value: number) => (Number.isNaN(value) ? '-' : String(value));
  const first = lags[0];
  return (
    `${seconds(summary.p50)} / ${seconds(summary.p90)} / ${seconds(summary.p99)} / ${seconds(summary.max)} s ` +
    `(p50 / p90 / p99 / max of ${summary.count})` +
    (first ? `, first instance ${first.lagSeconds} s (${first.instance})` : '')
  );
}
