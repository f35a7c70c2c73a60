/**
 * Runs a request sequence in the same order against two servers (the reference, kube-apiserver or
 * another in-memory server, and the subject, a fresh in-memory server), each in its own namespace of
 * the same name, and compares every answer, the watch events of the sequence and what is left after
 * deletions. A difference not in the accepted list fails the run.
 */
import { acceptedFor, type AcceptedDifference, type Aspect } from './accepted.ts';
import { sortedJson } from '../../src/validation/field-errors.ts';
import { CONTROLLER_MADE, firstDifference, normaliseReply } from './normalise.ts';
import { CLUSTER_SCOPED, describeStep, requestClass, RESOURCES, type Resource, type Step } from './model.ts';
import { HOLD_FINALIZER } from './objects.ts';
import { recordWatch, type Recording } from './watch-recorder.ts';
import type { Reply, Side } from './side.ts';

export interface Difference {
  index: number;
  requestClass: string;
  aspect: Aspect;
  path: string;
  reference: unknown;
  subject: unknown;
}

export interface RunResult {
  compared: number;
  /** Requests not sent after an accepted difference left the two servers in different states. */
  skipped: number;
  differences: Difference[];
  accepted: { entry: AcceptedDifference; difference: Difference }[];
}

/** Resources whose watch events are compared: no controller writes them. */
const WATCHED: readonly Resource[] = ['configmaps', 'secrets', 'services', 'leases', 'widgets'];
/** Resources the garbage collector ignores: an object with a missing owner stays. */
const NOT_COLLECTED: readonly Resource[] = ['events'];
const SETTLE_MS = Number(process.env.DIFFERENTIAL_SETTLE_MS ?? 20_000);

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isModifiedConflict(reply: Reply): boolean {
  const message = (reply.body as { message?: string } | undefined)?.message ?? '';
  return (
    reply.status === 409 &&
    (message.includes('the object has been modified') ||
      message.includes('The object might have been modified'))
  );
}

/**
 * A step reading the object's current version first can lose a race with a controller writing the
 * object (a Deployment's status): it is sent again, as a client would, on the side that lost.
 */
async function sendSettled(side: Side, step: Step): Promise<Reply> {
  let reply = await side.send(step);
  const current = (step.body ?? '').includes('$CURRENT_');
  for (
    let attempt = 0;
    attempt < 5 && current && step.resource === 'deployments' && isModifiedConflict(reply);
    attempt++
  ) {
    await sleep(100);
    reply = await side.send(step);
  }
  return reply;
}

/** Whether a deletion has finished its course: gone, or held by the test's own finalizer only. */
async function settledState(side: Side, step: Step): Promise<string> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const reply = await side.request('GET', side.objectPath(step.resource, step.name));
    const metadata = (reply.body as { metadata?: { finalizers?: string[]; deletionTimestamp?: string } })
      .metadata;
    const state =
      reply.status === 404
        ? 'gone'
        : metadata?.deletionTimestamp === undefined
          ? 'present'
          : (metadata.finalizers ?? []).every((finalizer) => finalizer === HOLD_FINALIZER)
            ? 'held'
            : undefined;
    if (
      state !== undefined &&
      (state !== 'present' ||
        step.mistake !== 'missing-owner' ||
        NOT_COLLECTED.includes(step.resource) ||
        Date.now() > deadline)
    )
      return state;
    if (Date.now() > deadline) return `pending: ${JSON.stringify(metadata?.finalizers ?? [])}`;
    await sleep(100);
  }
}

function needsSettling(step: Step, reply: Reply): boolean {
  if (reply.status >= 300) return false;
  if (step.verb === 'delete') return true;
  return step.mistake === 'missing-owner' && (step.verb === 'create' || step.verb === 'update');
}

/**
 * Watch events as compared: without objects the real control plane's controllers make, and without a
 * MODIFIED event that changes nothing but what normalisation drops (managedFields, a listed difference:
 * kube-apiserver writes an apply that only adds an owner, the in-memory server has nothing to write).
 */
function canonicalEvents(events: { type: string; object: unknown }[], side: Side): unknown[] {
  const last = new Map<string, string>();
  const result: unknown[] = [];
  for (const event of events) {
    const name = String((event.object as { metadata?: { name?: string } }).metadata?.name);
    if (CONTROLLER_MADE.has(name)) continue;
    const object = normaliseReply(event.object, side.book);
    const text = sortedJson(object);
    if (event.type === 'MODIFIED' && last.get(name) === text) continue;
    last.set(name, text);
    result.push({ type: event.type, object });
  }
  return result;
}

export class DifferentialRun {
  readonly result: RunResult = { compared: 0, skipped: 0, differences: [], accepted: [] };
  /** An accepted difference in a write's outcome: the states differ from here on. */
  private diverged = false;
  private watches: { resource: Resource; reference: Recording; subject: Recording }[] = [];

  readonly reference: Side;
  readonly subject: Side;
  private readonly accepted: readonly AcceptedDifference[] | undefined;

  constructor(reference: Side, subject: Side, accepted?: readonly AcceptedDifference[]) {
    this.reference = reference;
    this.subject = subject;
    this.accepted = accepted;
  }

  private record(difference: Difference): void {
    const entry = acceptedFor(
      difference.requestClass,
      difference.aspect,
      difference.path,
      difference.reference,
      this.accepted,
    );
    if (entry === undefined) this.result.differences.push(difference);
    else {
      this.result.accepted.push({ entry, difference });
      if (difference.aspect === 'code' || difference.aspect === 'state' || entry.diverges === true)
        this.diverged = true;
    }
  }

  async start(): Promise<void> {
    await Promise.all([this.reference.createNamespace(), this.subject.createNamespace()]);
    for (const resource of WATCHED) {
      const [reference, subject] = await Promise.all(
        [this.reference, this.subject].map(async (side) => {
          const list = await side.request('GET', side.pathOf(resource, resource));
          const version =
            (list.body as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ?? '0';
          return recordWatch(side, resource, version);
        }),
      );
      this.watches.push({ resource, reference: reference as Recording, subject: subject as Recording });
    }
  }

  async step(index: number, step: Step): Promise<void> {
    if (this.diverged) {
      this.result.skipped++;
      return;
    }
    const referenceReply = await sendSettled(this.reference, step);
    const subjectReply = await sendSettled(this.subject, step);
    this.result.compared++;
    const requestClass = requestClassOf(step);
    if (referenceReply.status !== subjectReply.status) {
      this.record({
        index,
        requestClass,
        aspect: 'code',
        path: 'status',
        reference: referenceReply.body,
        subject: subjectReply.body,
      });
      return;
    }
    const left = normaliseReply(referenceReply.body, this.reference.book);
    const right = normaliseReply(subjectReply.body, this.subject.book);
    const path = firstDifference(left, right);
    if (path !== undefined)
      this.record({ index, requestClass, aspect: 'body', path, reference: left, subject: right });
    if (needsSettling(step, referenceReply)) {
      const [referenceState, subjectState] = await Promise.all([
        settledState(this.reference, step),
        settledState(this.subject, step),
      ]);
      if (referenceState !== subjectState)
        this.record({
          index,
          requestClass,
          aspect: 'state',
          path: 'after',
          reference: referenceState,
          subject: subjectState,
        });
    }
  }

  /** Deletes the namespace and the sequence's cluster-scoped objects (released from their finalizers). */
  private async cleanUp(): Promise<void> {
    await Promise.all(
      [this.reference, this.subject].map(async (side) => {
        for (const resource of CLUSTER_SCOPED) {
          const list = await side.request(
            'GET',
            `${side.pathOf(resource, resource)}?labelSelector=sequence%3D${side.namespace}`,
          );
          const items = (list.body as { items?: { metadata: { name: string } }[] }).items ?? [];
          for (const item of items) {
            const path = side.pathOf(resource, `${resource}/${item.metadata.name}`);
            await side.request(
              'PATCH',
              path,
              'application/merge-patch+json',
              '{"metadata":{"finalizers":null}}',
            );
            await side.request('DELETE', path);
          }
        }
        await side.deleteNamespace();
      }),
    );
  }

  /** Compares the watch events once both servers have sent as many (or a few seconds passed). */
  async finish(steps: number): Promise<void> {
    if (this.diverged) {
      for (const watch of this.watches) {
        watch.reference.close();
        watch.subject.close();
      }
      await this.cleanUp();
      return;
    }
    const deadline = Date.now() + 3000;
    while (
      Date.now() < deadline &&
      this.watches.some((watch) => watch.reference.events.length !== watch.subject.events.length)
    )
      await sleep(50);
    await sleep(100);
    for (const watch of this.watches) {
      watch.reference.close();
      watch.subject.close();
      const left = canonicalEvents(watch.reference.events, this.reference);
      const right = canonicalEvents(watch.subject.events, this.subject);
      const path = firstDifference(left, right);
      if (path !== undefined)
        this.record({
          index: steps,
          requestClass: `watch:${watch.resource}:none`,
          aspect: 'watch',
          path,
          reference: left,
          subject: right,
        });
    }
    await this.cleanUp();
  }
}

function requestClassOf(step: Step): string {
  return requestClass(step);
}

/** Runs the steps; the result lists the differences not accepted. */
export async function runSequence(
  steps: readonly Step[],
  reference: Side,
  subject: Side,
  accepted?: readonly AcceptedDifference[],
): Promise<RunResult> {
  const run = new DifferentialRun(reference, subject, accepted);
  await run.start();
  try {
    for (const [index, step] of steps.entries()) await run.step(index, step);
  } finally {
    await run.finish(steps.length);
  }
  return run.result;
}

/** A reproduction: the request sequence and the first difference. */
export function reproduction(steps: readonly Step[], difference: Difference): string {
  // Requests after the one that differs play no part.
  const lines = steps
    .slice(0, difference.index + 1)
    .map((step, index) => `${index === difference.index ? '→' : ' '} ${index}. ${describeStep(step)}`);
  return [
    `difference in ${difference.aspect} at ${difference.path} (request ${difference.index}, class ${difference.requestClass}):`,
    ...lines,
    `reference: ${JSON.stringify(difference.reference).slice(0, 1500)}`,
    `subject:   ${JSON.stringify(difference.subject).slice(0, 1500)}`,
  ].join('\n');
}

export { RESOURCES };
