/**
 * The faults one at a time (then mixed), each while the churn keeps changing instances: per fault the
 * recovery time (from the end of the fault until every instance is Ready with every change made
 * meanwhile applied), what did not converge (lost updates, duplicate or orphaned children), the lists
 * and watches per informer, the parked instances still parked, and each replica's RSS. Stale writes
 * and finalizers removed without consent are judged from the audit log at the end, and counted
 * against the fault whose window they fall in.
 */
import { DEFAULT_LEASE_DURATION_MS } from '@scoby/controller-runtime';
import { sleep } from '../chaos/cluster.ts';
import { type CheckResult, countByKind, settle, type Settled, type Violation } from '../chaos/invariants.ts';
import { updatesLost } from '../chaos/soak-bookkeeping.ts';
import type { AuditJudge, InformerActivity } from './audit-judge.ts';
import { running } from './cluster.ts';
import { FAULTS, type Fault, type FaultTimes } from './faults.ts';
import { informerStarts, leaseEvents, leaseLines, type LeaseEvent } from './lease-hand-overs.ts';
import { judgeRun, parkedState, worldJudge, type FaultWorld, type Outcome } from './setup.ts';
import { WORKLOADS } from './world.ts';

export interface FaultRunOptions extends FaultTimes {
  only: readonly string[];
  churnPerSecond: number;
  patienceSeconds: number;
  /** Recovery over its bound fails the run too (otherwise it is reported). */
  enforceTargets: boolean;
}

/** Recovery bound after the API server answers again; after a replica dies, the lease duration more. */
const API_BOUND_MS = 10_000;
const REPLICA_BOUND_MS = DEFAULT_LEASE_DURATION_MS + 10_000;
const WARM_UP_MS = 3_000;

interface FaultResult {
  fault: Fault;
  startedAt: number;
  endedAt: number;
  settledAt: number;
  /**
   * When nothing was left but kube-controller-manager's work (children of deleted instances to
   * collect, Deployments to make available); settledAt when none was ever pending.
   */
  recoveredAt: number;
  settled: Settled;
  activity: InformerActivity[];
  /** The same from the fault's end. */
  activityAfterEnd: InformerActivity[];
  /** Each replica's registration Leases acquired, lost and handed over in the window. */
  leases: LeaseEvent[];
  parked: string[];
  rssMiB: number[];
  crashed: string[];
  changes: number;
  /** What was not converged yet when the recovery target passed. */
  atBound: string | undefined;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What Scoby still has to do: everything but kube-controller-manager's share (Violation.awaits). */
export function scobysOwn(violations: readonly Violation[]): Violation[] {
  return violations.filter((violation) => violation.awaits === undefined);
}

/**
 * How long Scoby is given to act on a change of a Deployment it controls (a watch event, a reconcile,
 * a status patch) before its instance, not Ready, counts as Scoby's own work again. Without it a check
 * that lands between kube-controller-manager marking a Deployment available and Scoby's status patch
 * charges Scoby for kube-controller-manager's pace: its late Deployments then set Scoby's recovery.
 */
export const REACTION_MS = 2_000;

/**
 * When each Deployment's current version was first seen by the checks. Versions of the first check are
 * taken as old (their change may be long past), so only changes seen happening are given REACTION_MS.
 */
export class WorkloadChanges {
  readonly #seen = new Map<string, { version: string; at: number }>();
  #observed = false;

  observe(versions: ReadonlyMap<string, string>, now: number): void {
    for (const [name, version] of versions) {
      if (this.#seen.get(name)?.version === version) continue;
      this.#seen.set(name, { version, at: this.#observed ? now : Number.NEGATIVE_INFINITY });
    }
    this.#observed = true;
  }

  /**
   * `violations` with each lost status whose instance has a Deployment changed less than REACTION_MS
   * before `now` marked as awaiting the workload controllers: Scoby's reaction is still under way.
   */
  withReactions(violations: readonly Violation[], now: number): Violation[] {
    return violations.map((violation) =>
      this.#reacting(violation, now) ? { ...violation, awaits: 'workload-controllers' as const } : violation,
    );
  }

  #reacting(violation: Violation, now: number): boolean {
    if (violation.awaits !== undefined || violation.kind !== 'lost-status') return false;
    return (violation.workloads ?? []).some(
      (name) => now - (this.#seen.get(name)?.at ?? -Infinity) < REACTION_MS,
    );
  }
}

/**
 * When Scoby's own work has been done since (epoch ms), after a check at `now` that found
 * `violations`: kept while it stays done, dropped when some comes back (a Deployment turned available
 * asks for its instance's status again, and Scoby took longer than REACTION_MS to write it; see
 * WorkloadChanges), so the recovery ends with the last stretch, not the first.
 */
export function ownSettledSince(
  since: number | undefined,
  violations: readonly Violation[],
  now: number,
): number | undefined {
  return scobysOwn(violations).length > 0 ? undefined : (since ?? now);
}

function boundOf(fault: Fault): number {
  return fault.bound === 'api' ? API_BOUND_MS : REPLICA_BOUND_MS;
}

/**
 * Lists above the watches an informer had to start again: more than one list per broken watch. A fault
 * that cuts answers in flight is judged from its end (`afterEnd`): during it, a list the audit log
 * shows answered may be one the replica never got. An informer whose replica took up its registration
 * again in the window (`starts`, from lease-hand-overs.ts) is a new informer each time, whose list is
 * its first, not a relist.
 */
export function relistStorms(
  fault: Pick<Fault, 'cutsAnswers'>,
  whole: readonly InformerActivity[],
  afterEnd: readonly InformerActivity[],
  starts: (informer: string, window: 'whole' | 'afterEnd') => number = () => 0,
): InformerActivity[] {
  const window = fault.cutsAnswers === true ? 'afterEnd' : 'whole';
  return (window === 'afterEnd' ? afterEnd : whole).filter(
    (each) => each.lists > Math.max(1, each.watches + starts(each.informer, window)),
  );
}

const REGISTRATION_OF_RESOURCE: ReadonlyMap<string, string> = new Map(
  WORKLOADS.map((each) => [each.resource.resource, each.registration]),
);

/** The storms of a result, an informer taken up again with its registration's Lease counted as new. */
function stormsOf(result: FaultResult): InformerActivity[] {
  const afterEnd = result.leases.filter((event) => event.atMs >= result.endedAt);
  return relistStorms(result.fault, result.activity, result.activityAfterEnd, (informer, window) =>
    informerStarts(informer, window === 'whole' ? result.leases : afterEnd, REGISTRATION_OF_RESOURCE),
  );
}

export async function runFaults(
  world: FaultWorld,
  options: FaultRunOptions,
  log: (line: string) => void,
): Promise<Outcome> {
  const { cluster, churn } = world;
  const judge = worldJudge();
  judge.add(await cluster.audit.read());
  const selected =
    options.only.length === 0 ? FAULTS : FAULTS.filter((fault) => options.only.includes(fault.name));
  const results: FaultResult[] = [];
  const killed = new Set<string>();
  for (const fault of selected) {
    const updatesBefore = churn.counts.updates + churn.counts.creates + churn.counts.deletes;
    churn.start({ paceMs: 1000 / options.churnPerSecond, live: churn.live().length });
    await sleep(WARM_UP_MS);
    const startedAt = Date.now();
    log(`${fault.name}: ${fault.description}`);
    const end = await fault.run(cluster, options, log);
    if (fault.bound === 'replica') killed.add(cluster.replicas[0]!.name);
    await churn.stop();
    // What was still pending when the recovery target passed: the first check after it.
    let atBound: string | undefined;
    let recoveredAt: number | undefined;
    const changes = new WorkloadChanges();
    const onPending = (pending: CheckResult) => {
      const now = Date.now();
      changes.observe(pending.deploymentVersions, now);
      const violations = changes.withReactions(pending.violations, now);
      const own = scobysOwn(violations);
      recoveredAt = ownSettledSince(recoveredAt, violations, now);
      if (atBound !== undefined || recoveredAt !== undefined || now - end.endedAt < boundOf(fault)) return;
      const first = own[0]!;
      atBound = `${own.length} pending, e.g. ${first.kind} ${first.object}: ${first.detail}`;
    };
    const settled = await settle(
      cluster.admin,
      WORKLOADS,
      churn.instances,
      options.patienceSeconds * 1000,
      250,
      onPending,
    );
    const settledAt = Date.now();
    judge.add(await cluster.audit.read());
    const parked = (await Promise.all(world.parked.map((each) => parkedState(cluster, each))))
      .map((state, index) => ({ state, each: world.parked[index]! }))
      .filter(({ state }) => state !== 'parked')
      .map(({ state, each }) => `${each.workload.kind} ${each.name} ${state}`);
    const crashed = cluster.replicas
      .filter((replica) => !killed.has(replica.name) && !running(replica))
      .map(
        (replica) =>
          `${replica.name} exited ${replica.current.process.signalCode ?? replica.current.process.exitCode}`,
      );
    results.push({
      fault,
      startedAt,
      endedAt: end.endedAt,
      settledAt,
      recoveredAt: recoveredAt ?? settledAt,
      settled,
      activity: judge.activity(startedAt, settledAt),
      activityAfterEnd: judge.activity(end.endedAt, settledAt),
      leases: leaseEvents(cluster.replicas, startedAt, settledAt),
      parked,
      rssMiB: cluster.rssMiB(),
      crashed,
      atBound,
      changes: churn.counts.updates + churn.counts.creates + churn.counts.deletes - updatesBefore,
    });
    log(
      `${fault.name}: converged ${settled.violations.length === 0 ? 'yes' : 'NO'} ${seconds(settledAt - end.endedAt)} after its end`,
    );
    if (end.after) {
      await end.after();
      killed.delete(cluster.replicas[0]!.name);
      await settle(cluster.admin, WORKLOADS, churn.instances, options.patienceSeconds * 1000, 1_000);
      judge.add(await cluster.audit.read());
    }
  }

  const end = await judgeRun(world, judge, options.patienceSeconds * 1000);
  return report(results, { ...end, churn: churn.counts }, options, log);
}

function within(result: FaultResult, atMicros: number): boolean {
  return atMicros >= result.startedAt * 1000 && atMicros <= result.settledAt * 1000;
}

function report(
  results: readonly FaultResult[],
  end: {
    stale: Awaited<ReturnType<AuditJudge['staleWrites']>>;
    unconsented: ReturnType<AuditJudge['unconsentedRemovals']>;
    released: string[];
    churn: { creates: number; updates: number; deletes: number; retries: number };
  },
  options: FaultRunOptions,
  log: (line: string) => void,
): Outcome {
  const broken: string[] = [];
  const missed: string[] = [];
  console.log('');
  for (const result of results) {
    const { fault, settled } = result;
    const counts = countByKind(settled.violations);
    const lost = updatesLost(settled.violations);
    const duplicates = counts.duplicate + counts.orphan;
    const stale = end.stale.stale.filter((write) => within(result, write.atMicros));
    const unconsented = end.unconsented.filter((removal) => within(result, removal.atMicros));
    const recoveryMs = result.recoveredAt - result.endedAt;
    const collectedMs = result.settledAt - result.endedAt;
    const storms = stormsOf(result);
    const restarted = result.leases.filter((event) => event.kind === 'acquired').length;
    const maxLists = Math.max(0, ...result.activity.map((each) => each.lists));
    const maxWatches = Math.max(0, ...result.activity.map((each) => each.watches));
    const totalLists = result.activity.reduce((sum, each) => sum + each.lists, 0);
    const bound = boundOf(fault);
    const converged = settled.violations.length === 0;
    console.log(`${fault.name}: ${fault.description}`);
    console.log(
      `  fault lasted           ${seconds(result.endedAt - result.startedAt)}, ${result.changes} changes by the churn meanwhile`,
    );
    console.log(
      `  recovery               ${converged ? seconds(recoveryMs) : `NOT CONVERGED after ${seconds(recoveryMs)}`} (target ≤ ${seconds(bound)} after ${fault.bound === 'api' ? 'the API server answers again' : 'the replica died'})`,
    );
    if (result.atBound !== undefined) console.log(`  at the target          ${result.atBound}`);
    if (result.settledAt > result.recoveredAt)
      console.log(
        `  converged              ${seconds(collectedMs)} after the end, kube-controller-manager's share included (garbage collection, Deployments turning available: not in Scoby's recovery; what it never did is a violation)`,
      );
    console.log(`  lost updates           ${lost} (target 0)`);
    console.log(`  duplicate children     ${duplicates} (target 0; orphans ${counts.orphan})`);
    console.log(`  stale writes           ${stale.length} (target 0)`);
    console.log(
      `  unconsented removals   ${unconsented.length} (target 0); parked still parked: ${result.parked.length === 0 ? 'all' : result.parked.join(', ')}`,
    );
    console.log(
      `  lists per informer     max ${maxLists}, ${totalLists} over ${result.activity.length} informers; watches started per informer max ${maxWatches}; relist storms ${storms.length} (target 0: no informer listing more often than its watch broke${fault.cutsAnswers === true ? ', judged from the end: the fault cut answers in flight' : ''}${restarted > 0 ? `; ${restarted} registrations taken up again with their Lease, whose informers started anew` : ''})`,
    );
    console.log(`  RSS after              ${result.rssMiB.map((rss) => `${rss.toFixed(0)} MiB`).join(', ')}`);
    for (const violation of settled.violations.slice(0, 5))
      console.log(`    ${violation.kind} ${violation.object}: ${violation.detail}`);
    for (const write of stale.slice(0, 5))
      console.log(
        `    stale ${write.object} by ${write.user}: desired state ${write.wrote} after ${write.after}`,
      );
    for (const storm of storms.slice(0, 5))
      console.log(`    relist storm ${storm.informer}: ${storm.lists} lists, ${storm.watches} watches`);
    // What the replicas did with their Leases explains a storm or what is left undone.
    if (storms.length > 0 || !converged)
      for (const line of leaseLines(result.leases, result.startedAt).slice(0, 30))
        console.log(`    lease ${line}`);
    const name = fault.name;
    if (!converged) broken.push(`${name}: did not converge (${settled.violations.length} violations)`);
    if (lost > 0) broken.push(`${name}: ${lost} lost updates`);
    if (duplicates > 0) broken.push(`${name}: ${duplicates} duplicate or orphaned children`);
    if (stale.length > 0) broken.push(`${name}: ${stale.length} stale writes`);
    if (unconsented.length > 0)
      broken.push(`${name}: ${unconsented.length} finalizers removed without consent`);
    if (result.parked.length > 0)
      broken.push(`${name}: parked instances not parked: ${result.parked.join(', ')}`);
    if (result.crashed.length > 0) broken.push(`${name}: ${result.crashed.join(', ')}`);
    if (storms.length > 0)
      broken.push(`${name}: ${storms.length} informers listed more often than their watch broke`);
    if (fault.forcesRelist && totalLists === 0)
      broken.push(`${name}: no informer listed again after its history was compacted`);
    if (converged && recoveryMs > bound)
      missed.push(`${name}: recovery ${seconds(recoveryMs)} over ${seconds(bound)}`);
  }
  const outside = end.stale.stale.filter(
    (write) => !results.some((result) => within(result, write.atMicros)),
  );
  const unconsentedOutside = end.unconsented.filter(
    (removal) => !results.some((result) => within(result, removal.atMicros)),
  );
  console.log('');
  console.log(
    `whole run: churn ${end.churn.creates} creates, ${end.churn.updates} updates, ${end.churn.deletes} deletes (${end.churn.retries} retried); ` +
      `writes judged for staleness ${end.stale.judged} (${end.stale.unjudged} carried no desired state the bench wrote); ` +
      `stale outside fault windows ${outside.length}; unconsented removals outside ${unconsentedOutside.length}; parked instances released and gone: ${end.released.length === 0 ? 'all' : `NOT ${end.released.join(', ')}`}`,
  );
  if (outside.length > 0) broken.push(`${outside.length} stale writes outside the fault windows`);
  if (unconsentedOutside.length > 0)
    broken.push(`${unconsentedOutside.length} finalizers removed without consent outside the fault windows`);
  if (end.released.length > 0)
    broken.push(`parked instances not gone once released: ${end.released.join(', ')}`);
  if (end.stale.judged === 0)
    broken.push('no write could be judged for staleness (the audit log holds no child write)');
  if (options.enforceTargets) broken.push(...missed);
  log(
    `done: ${broken.length === 0 ? 'every invariant held' : `${broken.length} broken`}${missed.length > 0 ? `; targets missed: ${missed.length}` : ''}`,
  );
  return { broken, missed };
}
