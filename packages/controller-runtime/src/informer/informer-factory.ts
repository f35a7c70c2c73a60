import type { KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import type { ResourceRef } from '../client/dynamic-client.ts';
import type { BackoffPolicy } from '../queue/backoff.ts';
import type { Clock } from '../time/clock.ts';
import { type InformerHandlers, type ObjectLister, SharedInformer } from './shared-informer.ts';
import type { ObjectTransform } from './transforms.ts';

export interface InformerFactoryOptions {
  lister: ObjectLister;
  /** WORKING_NAMESPACES: namespaced kinds are watched only there. Undefined: all namespaces. */
  workingNamespaces?: readonly string[];
  resyncMs?: number;
  /** Applied by every informer before caching (SharedInformerOptions.transform), e.g. stripManagedFields. */
  transform?: ObjectTransform;
  restartBackoff?: BackoffPolicy;
  /** See SharedInformerOptions.watchSilenceMs. */
  watchSilenceMs?: number;
  clock?: Clock;
  logger?: Logger;
}

export interface InformerRequest {
  resource: ResourceRef;
  /** Watch this one namespace instead of the working namespaces (e.g. Scoby's own ConfigMaps). */
  namespace?: string;
  labelSelector?: string;
  /**
   * This informer's transform instead of the factory's. Every acquirer of one informer (same
   * resource, namespaces and selector) must pass the same one: the first acquire creates it.
   */
  transform?: ObjectTransform;
}

/** One user's hold on a shared informer. */
export interface InformerHandle<T extends KubeObject = KubeObject> {
  readonly informer: SharedInformer<T>;
  /** Subscribes through this handle; release() unsubscribes. */
  addHandlers(handlers: InformerHandlers<T>): void;
  /** Drops this hold (idempotent); the last one stops the informer. */
  release(): void;
}

interface Entry {
  informer: SharedInformer;
  holders: number;
}

/**
 * Shared informers keyed by (resource, namespaces, label selector), started on first acquire and
 * stopped when the last holder releases, so registrations can start and stop watches of their
 * kinds at run time.
 */
export class InformerFactory {
  readonly #options: InformerFactoryOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(options: InformerFactoryOptions) {
    this.#options = options;
  }

  /** Keys of the running informers. */
  get keys(): string[] {
    return [...this.#entries.keys()];
  }

  acquire<T extends KubeObject = KubeObject>(request: InformerRequest): InformerHandle<T> {
    const namespaces = this.#namespacesFor(request);
    const key = informerKey(request.resource, namespaces, request.labelSelector);
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const { lister, resyncMs, transform, restartBackoff, watchSilenceMs, clock, logger } = this.#options;
      const informer = new SharedInformer({
        lister,
        resource: request.resource,
        namespaces,
        labelSelector: request.labelSelector,
        resyncMs,
        transform: request.transform ?? transform,
        restartBackoff,
        watchSilenceMs,
        clock,
        logger,
      });
      entry = { informer, holders: 0 };
      this.#entries.set(key, entry);
      informer.start();
    }
    entry.holders += 1;
    return this.#handle<T>(key, entry);
  }

  /**
   * The object as a running informer of `resource` caches it (controller-runtime's cache reader):
   * what the controller reads, for diagnostics and tests. Undefined when none holds it.
   */
  cached(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    const prefix = `${resource.group}/${resource.version}/${resource.resource}|`;
    for (const [key, entry] of this.#entries) {
      const object = key.startsWith(prefix) ? entry.informer.get(namespace, name) : undefined;
      if (object !== undefined) return object;
    }
    return undefined;
  }

  /** Stops every informer regardless of holders (process shutdown). */
  stopAll(): void {
    for (const entry of this.#entries.values()) entry.informer.stop();
    this.#entries.clear();
  }

  #namespacesFor(request: InformerRequest): readonly string[] | undefined {
    if (!request.resource.namespaced) return undefined;
    if (request.namespace !== undefined) return [request.namespace];
    return this.#options.workingNamespaces;
  }

  #handle<T extends KubeObject>(key: string, entry: Entry): InformerHandle<T> {
    const informer = entry.informer as unknown as SharedInformer<T>;
    const unsubscribers: Array<() => void> = [];
    let released = false;
    return {
      informer,
      addHandlers: (handlers) => {
        if (!released) unsubscribers.push(informer.addHandlers(handlers));
      },
      release: () => {
        if (released) return;
        released = true;
        for (const unsubscribe of unsubscribers) unsubscribe();
        entry.holders -= 1;
        if (entry.holders === 0 && this.#entries.get(key) === entry) {
          this.#entries.delete(key);
          entry.informer.stop();
        }
      },
    };
  }
}

/** `group/version/resource|namespaces or *|labelSelector`; namespaces sorted so order does not matter. */
export function informerKey(
  resource: ResourceRef,
  namespaces: readonly string[] | undefined,
  labelSelector: string | undefined,
): string {
  const scope = namespaces === undefined ? '*' : [...namespaces].sort().join(',');
  return `${resource.group}/${resource.version}/${resource.resource}|${scope}|${labelSelector ?? ''}`;
}
