/**
 * What a fault run and a soak start from: the cluster with its replicas, N instances spread over the
 * ten registrations by the churn (which remembers every spec it wrote), a few instances of the
 * finalize-hooked registrations parked in deletion (their hook refuses), and every instance Ready.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { isNotFound } from '@scoby/controller-runtime';
import { sleep, type Workload } from '../chaos/cluster.ts';
import { Churn, instanceObject, specAt } from '../chaos/churn.ts';
import { settle, type Settled } from '../chaos/invariants.ts';
import type { Random } from '../chaos/random.ts';
import { NAMESPACE } from '../world.ts';
import { AuditJudge, SCOBY_FINALIZER } from './audit-judge.ts';
import { desiredRevisions } from './desired-revisions.ts';
import { startFaultCluster, type FaultCluster } from './cluster.ts';
import { FINALIZED, GROUP, PARKED_PREFIX, WORKLOADS } from './world.ts';

export const PARKED_PER_REGISTRATION = 2;

export interface ParkedInstance {
  workload: Workload;
  name: string;
}

export interface FaultWorld {
  cluster: FaultCluster;
  churn: Churn;
  parked: ParkedInstance[];
  converged: Settled;
}

function ready(instance: KubeObject): boolean {
  const status = instance.status as
    { observedGeneration?: number; conditions?: { type: string; status: string }[] } | undefined;
  return (
    status?.observedGeneration === instance.metadata.generation &&
    status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ===
      true
  );
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** Parked: deleted, Scoby's finalizer still on it (its hook refused). */
export async function parkedState(
  cluster: FaultCluster,
  parked: ParkedInstance,
): Promise<'parked' | 'gone' | 'finalizer removed' | 'not deleted'> {
  try {
    const instance = await cluster.admin.get(parked.workload.resource, NAMESPACE, parked.name);
    if (instance.metadata.deletionTimestamp === undefined) return 'not deleted';
    return (instance.metadata.finalizers ?? []).includes(SCOBY_FINALIZER) ? 'parked' : 'finalizer removed';
  } catch (error) {
    if (isNotFound(error)) return 'gone';
    throw error;
  }
}

export async function startFaultWorld(options: {
  instances: number;
  replicas: number;
  random: Random;
  patienceMs: number;
  /** The replicas' LOG_LEVEL; the chart's when absent. */
  logLevel?: string;
  log(line: string): void;
}): Promise<FaultWorld> {
  const cluster = await startFaultCluster({
    instances: options.instances + FINALIZED.length * PARKED_PER_REGISTRATION,
    replicas: options.replicas,
    random: () => options.random.next(),
    ...(options.logLevel === undefined ? {} : { logLevel: options.logLevel }),
    log: options.log,
  });
  try {
    const churn = new Churn(cluster.admin, WORKLOADS, options.random);
    await churn.seed(options.instances);
    const parked: ParkedInstance[] = FINALIZED.flatMap((workload) =>
      Array.from({ length: PARKED_PER_REGISTRATION }, (_, index) => ({
        workload,
        name: `${PARKED_PREFIX}${workload.kind.toLowerCase()}-${index}`,
      })),
    );
    for (const { workload, name } of parked) {
      await cluster.admin.create(workload.resource, instanceObject(workload, name, specAt(name, 1)));
    }
    for (const { workload, name } of parked) {
      await waitFor(
        `${workload.kind} ${name} Ready with its finalizer`,
        async () => {
          const instance = await cluster.admin.get(workload.resource, NAMESPACE, name);
          return ready(instance) && (instance.metadata.finalizers ?? []).includes(SCOBY_FINALIZER);
        },
        options.patienceMs,
      );
      await cluster.admin.delete(workload.resource, NAMESPACE, name);
    }
    const converged = await settle(cluster.admin, WORKLOADS, churn.instances, options.patienceMs, 1_000);
    for (const each of parked) {
      const state = await parkedState(cluster, each);
      if (state !== 'parked') throw new Error(`${each.workload.kind} ${each.name} is ${state}, not parked`);
    }
    return { cluster, churn, parked, converged };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** The hook consents at last: each parked instance is touched (parking holds until it changes) and must go. */
export async function releaseParked(world: FaultWorld, patienceMs: number): Promise<string[]> {
  world.cluster.hook.releaseParked();
  for (const { workload, name } of world.parked) {
    await world.cluster.admin
      .patch(workload.resource, NAMESPACE, name, {
        metadata: { annotations: { 'faults.example.com/released': new Date().toISOString() } },
      })
      .catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
  }
  const deadline = Date.now() + patienceMs;
  let left = world.parked;
  while (left.length > 0 && Date.now() < deadline) {
    const states = await Promise.all(left.map((each) => parkedState(world.cluster, each)));
    left = left.filter((_, index) => states[index] !== 'gone');
    if (left.length > 0) await sleep(1_000);
  }
  return left.map((each) => `${each.workload.kind} ${each.name}`);
}

/** What a run ends with: invariants broken, and targets missed. */
export interface Outcome {
  broken: string[];
  missed: string[];
}

/** A judge of the replicas' writes of children (Deployments, Services) and instances. */
export function worldJudge(): AuditJudge {
  return new AuditJudge({ childResources: ['deployments', 'services'], instanceGroup: GROUP });
}

/**
 * The end of a run: the parked instances released (they must go), then the whole audit log judged:
 * stale writes, and finalizers removed before the hook consented.
 */
export async function judgeRun(world: FaultWorld, judge: AuditJudge, patienceMs: number) {
  const { cluster, churn } = world;
  const released = await releaseParked(world, patienceMs);
  judge.add(await cluster.audit.read());
  const newest = (kind: string, name: string) =>
    churn.instances.find((each) => each.workload.kind === kind && each.name === name)?.revision ?? 1;
  const stale = await judge.staleWrites(desiredRevisions(cluster.admin, WORKLOADS, newest));
  const unconsented = judge.unconsentedRemovals((uid) => cluster.hook.consents.get(uid));
  return { released, stale, unconsented };
}
