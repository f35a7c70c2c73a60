/**
 * The Pods of a Deployment that is not available, read so that `DeploymentReady` can say why
 * (docs/spec/children-and-status.md §8.3): only then, at most once per POD_READ_INTERVAL_MS per
 * instance, and without a Pod informer (the memory of every Pod in the cluster).
 */
import { observedCondition } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import {
  type DynamicClient,
  errorMessage,
  formatObjectKey,
  isAbortError,
  type ObjectKey,
  type ResourceRef,
} from '@scoby/controller-runtime';
import type { Logger } from 'pino';

export const POD_READ_INTERVAL_MS = 15_000;

/**
 * What this reader reads of a Deployment besides its status: the selector of its Pods. The child
 * caches keep it when they slim a Deployment (children-and-status.md §5.2).
 */
export const DEPLOYMENT_FIELDS_READ = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  fields: ['spec.selector'],
} as const;

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods', namespaced: true };

/** An observed Deployment whose controller reported it not available, with the selector of its Pods. */
export function unavailableDeployment(
  object: KubeObject | undefined,
): { namespace: string; labelSelector: string } | undefined {
  if (object?.apiVersion !== 'apps/v1' || object.kind !== 'Deployment') return undefined;
  const available = observedCondition(object, 'Available');
  if (available === undefined || available.status === 'True') return undefined;
  const matchLabels = (object.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)
    ?.selector?.matchLabels;
  const labels = Object.entries(matchLabels ?? {});
  const namespace = object.metadata.namespace;
  if (labels.length === 0 || namespace === undefined) return undefined;
  return { namespace, labelSelector: labels.map(([key, value]) => `${key}=${value}`).join(',') };
}

interface LastRead {
  at: number;
  pods: Record<string, readonly KubeObject[]>;
}

export interface UnavailablePods {
  /** By child key; only Deployments whose Pods could be read. */
  pods: Record<string, readonly KubeObject[]>;
  /** Some observed Deployment is not available: look again after POD_READ_INTERVAL_MS. */
  unavailable: boolean;
}

export class UnavailablePodReader {
  readonly #client: DynamicClient;
  readonly #now: () => number;
  readonly #logger: Logger | undefined;
  readonly #last = new Map<string, LastRead>();
  /** Instances whose failed read was logged (once each). */
  readonly #reported = new Set<string>();

  constructor(client: DynamicClient, now: () => number, logger?: Logger) {
    this.#client = client;
    this.#now = now;
    this.#logger = logger;
  }

  /**
   * The Pods of the unavailable Deployments among `observed`. Nothing to read answers at once, not
   * a promise: the usual reconcile sends its status write without waiting a turn.
   */
  read(
    instance: ObjectKey,
    observed: Readonly<Record<string, KubeObject | undefined>>,
    signal?: AbortSignal,
  ): UnavailablePods | Promise<UnavailablePods> {
    const instanceKey = formatObjectKey(instance);
    const targets = Object.entries(observed).flatMap(([key, object]) => {
      const target = unavailableDeployment(object);
      return target === undefined ? [] : [{ key, ...target }];
    });
    if (targets.length === 0) {
      this.#last.delete(instanceKey);
      return { pods: {}, unavailable: false };
    }
    return this.#readTargets(instance, targets, signal);
  }

  async #readTargets(
    instance: ObjectKey,
    targets: { key: string; namespace: string; labelSelector: string }[],
    signal: AbortSignal | undefined,
  ): Promise<UnavailablePods> {
    const instanceKey = formatObjectKey(instance);
    const last = this.#last.get(instanceKey);
    if (last !== undefined && this.#now() - last.at < POD_READ_INTERVAL_MS) {
      return { pods: last.pods, unavailable: true };
    }
    const pods: Record<string, readonly KubeObject[]> = {};
    for (const { key, namespace, labelSelector } of targets) {
      try {
        if (signal?.aborted) break;
        const list = await this.#client.list(PODS, namespace, { labelSelector });
        pods[key] = list.items;
        this.#reported.delete(instanceKey);
      } catch (error) {
        if (isAbortError(error)) throw error;
        if (!this.#reported.has(instanceKey)) {
          this.#reported.add(instanceKey);
          this.#logger?.info(
            { instance: `${instance.namespace}/${instance.name}`, err: errorMessage(error) },
            'the Pods of a Deployment that is not available could not be read; DeploymentReady says only what the Deployment says',
          );
        }
      }
    }
    this.#last.set(instanceKey, { at: this.#now(), pods });
    return { pods, unavailable: true };
  }

  forget(instance: ObjectKey): void {
    const instanceKey = formatObjectKey(instance);
    this.#last.delete(instanceKey);
    this.#reported.delete(instanceKey);
  }
}
