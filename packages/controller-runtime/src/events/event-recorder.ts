import { hostname } from 'node:os';
import type { KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import type { ResourceRef } from '../client/dynamic-client.ts';
import { writeScopes } from '../client/write-scope.ts';
import { type Clock, realClock } from '../time/clock.ts';
import {
  eventNamespace,
  type EventSource,
  eventTimestamp,
  type EventType,
  newEvent,
} from './event-object.ts';

/** What the recorder needs from an API client; DynamicClient is one (merge patch by default). */
export interface EventWriter {
  create(ref: ResourceRef, object: KubeObject): Promise<KubeObject>;
  patch(ref: ResourceRef, namespace: string | undefined, name: string, patch: unknown): Promise<KubeObject>;
}

export const EVENTS: ResourceRef = { group: '', version: 'v1', resource: 'events', namespaced: true };

export interface EventRecorderOptions {
  client: EventWriter;
  /** The controller's name, the Events' source and reporting component. */
  component: string;
  /** Default: the host name. */
  reportingInstance?: string;
  /** Repeats within this window raise the count of the existing Event. Default 10 minutes. */
  aggregationWindowMs?: number;
  /** How many distinct recent events are remembered for aggregation. Default 4096. */
  maxTracked?: number;
  clock?: Clock;
  logger?: Logger;
}

interface Tracked {
  name: string;
  namespace: string;
  count: number;
  lastSeen: number;
}

/**
 * Records core/v1 Events. The same (object, type, reason, message) seen again within the window
 * updates the count and lastTimestamp of the Event already written instead of creating another.
 * Recording never throws: an Event is a courtesy, so failures are only logged.
 */
export class EventRecorder {
  readonly #client: EventWriter;
  readonly #source: EventSource;
  readonly #windowMs: number;
  readonly #maxTracked: number;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;
  /** Most recently used last, so the oldest is evicted first. */
  readonly #tracked = new Map<string, Tracked>();
  /** Writes for one key run one after another, so a repeat never races the create of its Event. */
  readonly #pending = new Map<string, Promise<void>>();
  #sequence = 0;

  constructor(options: EventRecorderOptions) {
    this.#client = options.client;
    this.#source = {
      component: options.component,
      reportingInstance: options.reportingInstance ?? hostname(),
    };
    this.#windowMs = options.aggregationWindowMs ?? 600_000;
    this.#maxTracked = options.maxTracked ?? 4096;
    this.#clock = options.clock ?? realClock;
    this.#logger = options.logger;
  }

  /**
   * Resolves once the Event is written (or the failure logged). Written in the caller's write scope
   * (see write-scope.ts), taken now: the write may wait behind an earlier one of the same Event, and
   * is fenced as the caller's own writes are, however the queue in between is built.
   */
  emit(object: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const key = aggregationKey(object, type, reason, message);
    const scope = writeScopes.current();
    const previous = this.#pending.get(key) ?? Promise.resolve();
    const next = previous.then(() =>
      writeScopes.within(scope, () => this.#record(key, object, type, reason, message)),
    );
    this.#pending.set(key, next);
    void next.then(() => {
      if (this.#pending.get(key) === next) this.#pending.delete(key);
    });
    return next;
  }

  normal(object: KubeObject, reason: string, message: string): Promise<void> {
    return this.emit(object, 'Normal', reason, message);
  }

  warning(object: KubeObject, reason: string, message: string): Promise<void> {
    return this.emit(object, 'Warning', reason, message);
  }

  async #record(
    key: string,
    object: KubeObject,
    type: EventType,
    reason: string,
    message: string,
  ): Promise<void> {
    const now = this.#clock.now();
    const tracked = this.#tracked.get(key);
    try {
      if (tracked !== undefined && now - tracked.lastSeen <= this.#windowMs) {
        const count = tracked.count + 1;
        const patched = await this.#patchCount(tracked, count, now);
        if (patched) {
          this.#remember(key, { ...tracked, count, lastSeen: now });
          return;
        }
      }
      const name = this.#eventName(object, now);
      await this.#client.create(EVENTS, newEvent(name, object, type, reason, message, this.#source, now));
      this.#remember(key, { name, namespace: eventNamespace(object), count: 1, lastSeen: now });
    } catch (error) {
      this.#logger?.warn(
        { err: error, event: { reason, type, message }, object: involvedName(object) },
        'could not record an Event',
      );
    }
  }

  /** False when the Event to update is gone (expired by the API server), so a new one is created. */
  async #patchCount(tracked: Tracked, count: number, now: number): Promise<boolean> {
    try {
      await this.#client.patch(EVENTS, tracked.namespace, tracked.name, {
        count,
        lastTimestamp: eventTimestamp(now),
      });
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 404) return false;
      throw error;
    }
  }

  #remember(key: string, tracked: Tracked): void {
    this.#tracked.delete(key);
    this.#tracked.set(key, tracked);
    if (this.#tracked.size > this.#maxTracked) {
      const oldest = this.#tracked.keys().next().value;
      if (oldest !== undefined) this.#tracked.delete(oldest);
    }
  }

  /** `<object name>.<hex time>` like client-go, plus a sequence so two events in one millisecond differ. */
  #eventName(object: KubeObject, now: number): string {
    this.#sequence = (this.#sequence + 1) % 1_000_000;
    const stamp = BigInt(now) * 1_000_000n + BigInt(this.#sequence);
    return `${object.metadata.name ?? 'object'}.${stamp.toString(16)}`;
  }
}

function aggregationKey(object: KubeObject, type: EventType, reason: string, message: string): string {
  const who = object.metadata.uid ?? `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
  return JSON.stringify([object.apiVersion, object.kind, who, type, reason, message]);
}

function involvedName(object: KubeObject): string {
  const { namespace, name } = object.metadata;
  return `${object.kind} ${namespace ? `${namespace}/` : ''}${name ?? ''}`;
}
