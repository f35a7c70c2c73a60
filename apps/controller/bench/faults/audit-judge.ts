/**
 * What the API server's audit log says about the controllers' writes (the replicas' ServiceAccounts
 * only; their children's and instances' writes are recorded with the object answered):
 *
 * - stale writes: a child write whose desired state goes back in resourceVersion order. The desired
 *   state of a write is the revision of the instance's spec whose render (`scoby render`'s offline
 *   render) gives the desired-hash the written child carries; an instance status write is stale when
 *   its observedGeneration goes back. Writes of all replicas are ordered together, so a replica that
 *   wrote after losing a registration's Lease, from an older desired state, is caught.
 * - finalizers removed without consent: a write that leaves a deleted instance without Scoby's
 *   finalizer before its hook let it go.
 * - lists and watches per informer (user, resource, namespace, label selector) in a time window.
 */
import { auditMicros, type AuditEntry } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { DESIRED_HASH_ANNOTATION } from '../../src/instance/children/child-cache.ts';

export const SCOBY_FINALIZER = 'scoby.triggermesh.io/finalizer';

/** One write in the order the API server stored it. */
interface VersionedWrite {
  resourceVersion: bigint;
  atMicros: number;
  user: string;
  /** The child's desired-hash, or the instance status's observedGeneration. */
  value: string;
}

interface ChildOwner {
  kind: string;
  name: string;
  uid: string;
}

export interface StaleWrite {
  object: string;
  user: string;
  atMicros: number;
  /** The desired state (revision, or observed generation) written, and the newest written before it. */
  wrote: number;
  after: number;
}

export interface UnconsentedRemoval {
  object: string;
  user: string;
  atMicros: number;
}

export interface InformerActivity {
  informer: string;
  lists: number;
  watches: number;
}

/** Which revision of an instance's spec renders a child with `hash`; undefined when none does. */
export type RevisionOfHash = (owner: ChildOwner, hash: string) => Promise<number | undefined>;

function objectOf(entry: AuditEntry): KubeObject | undefined {
  const object = entry.responseObject as KubeObject | undefined;
  return object?.metadata === undefined ? undefined : object;
}

function succeeded(entry: AuditEntry): boolean {
  return entry.stage === 'ResponseComplete' && entry.code !== undefined && entry.code < 300;
}

/** user, resource, namespace and label selector of a list or watch: one informer's requests. */
export function informerOf(entry: AuditEntry): string {
  const selector = new URL(entry.requestURI, 'https://api').searchParams.get('labelSelector') ?? '';
  const { resource = '', namespace = '' } = entry.objectRef ?? {};
  return `${entry.user} ${resource}${namespace ? ` in ${namespace}` : ''}${selector ? ` [${selector}]` : ''}`;
}

export class AuditJudge {
  readonly #childResources: ReadonlySet<string>;
  readonly #instanceGroup: string;
  readonly #childWrites = new Map<string, { owner: ChildOwner; writes: VersionedWrite[] }>();
  readonly #statusWrites = new Map<string, VersionedWrite[]>();
  readonly #removals: Array<UnconsentedRemoval & { uid: string }> = [];
  readonly #reads: Array<{ atMicros: number; informer: string; verb: 'list' | 'watch' }> = [];
  /** Informers are what lists and watches: a list of what is never watched is a poll (the replicas' Leases). */
  readonly #watched = new Set<string>();

  /** `childResources`: the children's resources (deployments, services); `instanceGroup`: the registered CRDs' group. */
  constructor(options: { childResources: readonly string[]; instanceGroup: string }) {
    this.#childResources = new Set(options.childResources);
    this.#instanceGroup = options.instanceGroup;
  }

  add(entries: readonly AuditEntry[]): void {
    for (const entry of entries) this.#add(entry);
  }

  #add(entry: AuditEntry): void {
    const ref = entry.objectRef ?? {};
    if (entry.verb === 'list' && succeeded(entry)) {
      this.#reads.push({
        atMicros: auditMicros(entry.stageTimestamp),
        informer: informerOf(entry),
        verb: 'list',
      });
      return;
    }
    if (entry.verb === 'watch' && entry.stage === 'ResponseStarted') {
      const informer = informerOf(entry);
      this.#watched.add(informer);
      this.#reads.push({ atMicros: auditMicros(entry.stageTimestamp), informer, verb: 'watch' });
      return;
    }
    if (!['create', 'update', 'patch'].includes(entry.verb) || !succeeded(entry)) return;
    const object = objectOf(entry);
    if (object === undefined) return;
    const write = {
      resourceVersion: BigInt(object.metadata.resourceVersion ?? '0'),
      atMicros: auditMicros(entry.requestReceivedTimestamp),
      user: entry.user,
    };
    const key = `${ref.resource ?? ''} ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
    if (this.#childResources.has(ref.resource ?? '') && !ref.subresource) {
      const hash = object.metadata.annotations?.[DESIRED_HASH_ANNOTATION];
      const owner = object.metadata.ownerReferences?.find((reference) => reference.controller);
      if (hash === undefined || owner === undefined) return;
      const child = this.#childWrites.get(key) ?? {
        owner: { kind: owner.kind, name: owner.name, uid: owner.uid },
        writes: [],
      };
      child.writes.push({ ...write, value: hash });
      this.#childWrites.set(key, child);
      return;
    }
    if (ref.apiGroup !== this.#instanceGroup) return;
    if (ref.subresource === 'status') {
      const observed = (object.status as { observedGeneration?: number } | undefined)?.observedGeneration;
      if (observed === undefined) return;
      const writes = this.#statusWrites.get(key) ?? [];
      writes.push({ ...write, value: String(observed) });
      this.#statusWrites.set(key, writes);
      return;
    }
    if (
      object.metadata.deletionTimestamp !== undefined &&
      !(object.metadata.finalizers ?? []).includes(SCOBY_FINALIZER)
    ) {
      this.#removals.push({
        object: key,
        uid: object.metadata.uid ?? '',
        user: entry.user,
        atMicros: write.atMicros,
      });
    }
  }

  /** Child writes whose revision, and status writes whose observedGeneration, went back. */
  async staleWrites(
    revisionOf: RevisionOfHash,
  ): Promise<{ stale: StaleWrite[]; unjudged: number; judged: number }> {
    const stale: StaleWrite[] = [];
    let unjudged = 0;
    let judged = 0;
    for (const [object, { owner, writes }] of this.#childWrites) {
      const revisions: Array<{ write: VersionedWrite; revision: number }> = [];
      for (const write of writes) {
        const revision = await revisionOf(owner, write.value);
        if (revision === undefined) unjudged++;
        else revisions.push({ write, revision });
      }
      judged += revisions.length;
      stale.push(...wentBack(object, revisions));
    }
    for (const [object, writes] of this.#statusWrites) {
      judged += writes.length;
      stale.push(
        ...wentBack(
          object,
          writes.map((write) => ({ write, revision: Number(write.value) })),
        ),
      );
    }
    return { stale, unjudged, judged };
  }

  /** Removals of Scoby's finalizer from a deleted instance before its hook consented. */
  unconsentedRemovals(consentAt: (uid: string) => number | undefined): UnconsentedRemoval[] {
    return this.#removals
      .filter(({ uid, atMicros }) => {
        const consent = consentAt(uid);
        return consent === undefined || consent * 1000 > atMicros;
      })
      .map(({ object, user, atMicros }) => ({ object, user, atMicros }));
  }

  /** Lists and watches per informer (what has watched at least once) between two moments (epoch ms). */
  activity(fromMs: number, toMs: number): InformerActivity[] {
    const byInformer = new Map<string, InformerActivity>();
    for (const read of this.#reads) {
      if (read.atMicros < fromMs * 1000 || read.atMicros > toMs * 1000) continue;
      if (!this.#watched.has(read.informer)) continue;
      const activity = byInformer.get(read.informer) ?? { informer: read.informer, lists: 0, watches: 0 };
      if (read.verb === 'list') activity.lists++;
      else activity.watches++;
      byInformer.set(read.informer, activity);
    }
    return [...byInformer.values()];
  }
}

function wentBack(object: string, writes: Array<{ write: VersionedWrite; revision: number }>): StaleWrite[] {
  const ordered = [...writes].sort((a, b) =>
    a.write.resourceVersion < b.write.resourceVersion
      ? -1
      : a.write.resourceVersion > b.write.resourceVersion
        ? 1
        : 0,
  );
  const stale: StaleWrite[] = [];
  let newest = -Infinity;
  for (const { write, revision } of ordered) {
    if (revision < newest) {
      stale.push({ object, user: write.user, atMicros: write.atMicros, wrote: revision, after: newest });
    }
    newest = Math.max(newest, revision);
  }
  return stale;
}
