/**
 * What a scenario holds: a cluster reached through its kubeconfig, with the verbs of a user (apply
 * YAML, read, delete, look at Events) and patience (wait for a state with the provider's timeout).
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { KubeApiError, KubeClient } from './kube/client.ts';
import { parseManifests } from './kube/manifests.ts';
import type { ProviderName } from './providers/choose.ts';
import { waitFor, type Probe } from './wait.ts';

export interface EventView {
  type: string;
  reason: string;
  message: string;
}

/** How long each provider gets to converge: kwok runs real controllers, k3s starts real pods. */
const SETTLE_MS: Record<ProviderName, number> = { memory: 15_000, kwok: 60_000, k3s: 180_000, node: 180_000 };
/**
 * How long kube-controller-manager's garbage collector may take to remove the children of a deleted
 * instance. Its attempts on a dependent whose owner's kind it has not discovered yet back off from
 * 5 ms, doubling (20.5 s, 41 s, 82 s after the first); it discovers new CRDs every 30 s, so a child
 * made soon after its CRD goes 20 or 41 s after, and 82 s when one discovery round is missed.
 */
const COLLECT_MS: Record<ProviderName, number> = {
  memory: 15_000,
  kwok: 120_000,
  k3s: 180_000,
  node: 180_000,
};
/** How long to watch for something that must NOT happen. */
const QUIET_MS: Record<ProviderName, number> = { memory: 750, kwok: 2_000, k3s: 5_000, node: 5_000 };

export class ClusterHandle {
  readonly provider: ProviderName;
  readonly client: KubeClient;
  readonly timeoutMs: number;
  readonly quietMs: number;

  constructor(kubeconfigYaml: string, provider: ProviderName) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(kubeconfigYaml);
    this.provider = provider;
    this.client = new KubeClient(kubeConfig);
    this.timeoutMs = SETTLE_MS[provider];
    this.quietMs = QUIET_MS[provider];
  }

  /**
   * `kubectl apply --server-side` of YAML (several documents allowed) or objects, in order. A kind the
   * server does not serve yet (a CRD applied just before) is retried until served.
   */
  async apply(manifests: string | KubeObject | readonly KubeObject[]): Promise<KubeObject[]> {
    const objects =
      typeof manifests === 'string'
        ? parseManifests(manifests)
        : Array.isArray(manifests)
          ? manifests
          : [manifests as KubeObject];
    const applied: KubeObject[] = [];
    for (const object of objects) {
      const what = `${object.kind} "${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name ?? ''}"`;
      applied.push(
        await waitFor(`${what} to be accepted`, () => this.client.apply(object), {
          timeoutMs: this.timeoutMs,
          retryOn: (error) => error instanceof KubeApiError && error.code === 404,
        }),
      );
    }
    return applied;
  }

  /** `kubectl replace` of existing objects: fields left out are gone afterwards. Conflicts are retried. */
  async replace(manifests: string): Promise<KubeObject[]> {
    const replaced: KubeObject[] = [];
    for (const object of parseManifests(manifests)) {
      replaced.push(
        await waitFor(
          `${object.kind} "${object.metadata.name ?? ''}" to be replaced`,
          () => this.client.replace(object),
          {
            timeoutMs: this.timeoutMs,
            retryOn: (error) => error instanceof KubeApiError && error.code === 409,
          },
        ),
      );
    }
    return replaced;
  }

  get(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
  ): Promise<KubeObject | undefined> {
    return this.client.get(apiVersion, kind, namespace, name);
  }

  list(apiVersion: string, kind: string, namespace?: string): Promise<KubeObject[]> {
    return this.client.list(apiVersion, kind, namespace);
  }

  remove(object: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>): Promise<void> {
    return this.client.delete(
      object.apiVersion,
      object.kind,
      object.metadata.namespace,
      object.metadata.name ?? '',
    );
  }

  /** Distinct Events about one object (repeats are counted by the server, not listed again). */
  async events(namespace: string, name: string, kind?: string): Promise<EventView[]> {
    const events = await this.client.list('v1', 'Event', namespace);
    return events
      .filter((event) => {
        const about = event.involvedObject as { name?: string; kind?: string } | undefined;
        return about?.name === name && (kind === undefined || about.kind === kind);
      })
      .map((event) => ({
        type: String(event.type),
        reason: String(event.reason),
        message: String(event.message),
      }));
  }

  /**
   * Waits until some Event about the object has the reason `reason`, and returns every Event about
   * it. Scoby records an Event beside its status write without waiting for it (Events are a
   * courtesy, as client-go's recorder treats them), so the status can be read before the Event exists.
   */
  waitForEvents(namespace: string, name: string, kind: string, reason: string): Promise<EventView[]> {
    return this.waitFor(`a ${reason} Event about ${kind} "${namespace}/${name}"`, async () => {
      const found = await this.events(namespace, name, kind);
      return found.some((event) => event.reason === reason) ? found : undefined;
    });
  }

  /** Waits for the probe to return something other than undefined or false; probe errors mean "not yet". */
  waitFor<T>(description: string, probe: Probe<T>, timeoutMs = this.timeoutMs): Promise<T> {
    return waitFor(description, probe, { timeoutMs });
  }

  /** Waits until the object exists and `accept` holds for it, and returns it. */
  async waitForObject(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
    description: string,
    accept: (object: KubeObject) => boolean = () => true,
  ): Promise<KubeObject> {
    let last: KubeObject | undefined;
    const what = `${kind} "${namespace ? `${namespace}/` : ''}${name}" ${description}`;
    try {
      return await this.waitFor(what, async () => {
        last = await this.get(apiVersion, kind, namespace, name);
        return last !== undefined && accept(last) ? last : undefined;
      });
    } catch (error) {
      // The object as last seen is what explains a timeout.
      const seen =
        last === undefined
          ? 'absent'
          : JSON.stringify({ spec: last.spec, status: last.status }).slice(0, 2000);
      throw new Error(`${(error as Error).message}; last seen: ${seen}`, { cause: error });
    }
  }

  async waitForGone(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name: string,
    timeoutMs = this.timeoutMs,
  ): Promise<void> {
    await this.waitFor(
      `${kind} "${namespace ? `${namespace}/` : ''}${name}" to be gone`,
      async () => (await this.get(apiVersion, kind, namespace, name)) === undefined,
      timeoutMs,
    );
  }

  /** Waits until the garbage collector has removed a child whose owner is gone (see COLLECT_MS). */
  waitForCollected(apiVersion: string, kind: string, namespace: string, name: string): Promise<void> {
    return this.waitForGone(apiVersion, kind, namespace, name, COLLECT_MS[this.provider]);
  }

  /** Gives the controller time to do something it must not do. */
  quiet(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.quietMs));
  }

  close(): void {
    this.client.close();
  }
}
