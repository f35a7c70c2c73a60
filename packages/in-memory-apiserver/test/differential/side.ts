/**
 * One server of a differential run: sends a step's request in a namespace, completing its placeholders
 * with what this server answered before, and keeps the book its replies are normalised with.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { nodeRequest, rawResponse, type Target } from '../conformance/harness.ts';
import { newBook, type Book } from './normalise.ts';
import {
  apiPrefix,
  CLUSTER_SCOPED,
  CURRENT_RV,
  CURRENT_UID,
  objectName,
  SEQUENCE,
  STALE_RV,
  type Resource,
  type Step,
} from './model.ts';

export interface Reply {
  status: number;
  body: unknown;
}

/** A resourceVersion no live object has on either server (both start far above it for new objects). */
const STALE_VERSION = '1';

export class Side {
  readonly book: Book = newBook();

  readonly label: string;
  readonly target: Target;
  readonly namespace: string;
  /** Around each request of a step (a test weakens the subject's validation only while it answers). */
  private readonly around: <T>(send: () => Promise<T>) => Promise<T>;

  constructor(
    label: string,
    target: Target,
    namespace: string,
    around: <T>(send: () => Promise<T>) => Promise<T> = (send) => send(),
  ) {
    this.label = label;
    this.target = target;
    this.namespace = namespace;
    this.around = around;
  }

  async createNamespace(): Promise<void> {
    await this.target.kubeConfig
      .makeApiClient(CoreV1Api)
      .createNamespace({ body: { metadata: { name: this.namespace } } });
  }

  /** Deletes the namespace without waiting for it to go (a real one takes seconds). */
  async deleteNamespace(): Promise<void> {
    await this.target.kubeConfig
      .makeApiClient(CoreV1Api)
      .deleteNamespace({ name: this.namespace })
      .catch(() => undefined);
  }

  pathOf(resource: Resource, rest: string): string {
    const scope = CLUSTER_SCOPED.includes(resource) ? '' : `/namespaces/${this.namespace}`;
    return `${apiPrefix(resource)}${scope}/${this.resolve(rest)}`;
  }

  /** The path of one object of the sequence. */
  objectPath(resource: Resource, name: string): string {
    return this.pathOf(resource, `${resource}/${objectName(resource, name)}`);
  }

  /** A text with the sequence placeholder replaced by the namespace. */
  resolve(text: string): string {
    return text.split(SEQUENCE).join(this.namespace);
  }

  async request(method: string, path: string, contentType?: string, text?: string): Promise<Reply> {
    const reply = await rawResponse(
      this.target,
      method,
      path,
      text === undefined ? undefined : { contentType: contentType ?? 'application/json', text },
    );
    this.remember(reply.json);
    return { status: reply.status, body: reply.json };
  }

  /** The object's current metadata on this server (read without being compared). */
  async current(
    resource: Resource,
    name: string,
  ): Promise<{ uid: string; resourceVersion: string } | undefined> {
    const reply = await this.request('GET', this.objectPath(resource, name));
    if (reply.status !== 200) return undefined;
    const metadata = (reply.body as { metadata?: { uid?: string; resourceVersion?: string } }).metadata ?? {};
    return { uid: metadata.uid ?? '', resourceVersion: metadata.resourceVersion ?? '' };
  }

  /** Sends the step; a body that needs the object's current version reads it first. */
  async send(step: Step): Promise<Reply> {
    const needsCurrent = (step.body ?? '').includes(CURRENT_RV) || (step.body ?? '').includes(CURRENT_UID);
    const current = needsCurrent ? await this.current(step.resource, step.name) : undefined;
    const body = (step.body === undefined ? undefined : this.resolve(step.body))
      ?.split(`"${CURRENT_RV}"`)
      .join(JSON.stringify(current?.resourceVersion ?? STALE_VERSION))
      .split(`"${STALE_RV}"`)
      .join(JSON.stringify(STALE_VERSION))
      .split(`"${CURRENT_UID}"`)
      .join(JSON.stringify(current?.uid ?? '00000000-0000-0000-0000-000000000003'));
    const query = new URLSearchParams(
      Object.entries(step.query).map(([key, value]): [string, string] => [key, this.resolve(value)]),
    ).toString();
    const path = this.pathOf(step.resource, step.path) + (query ? `?${query}` : '');
    if (step.lengthUnknown) {
      const reply = await this.around(() => nodeRequest(this.target, step.method, path, body ?? '', false));
      this.remember(reply.json);
      return { status: reply.status, body: reply.json };
    }
    return this.around(() => this.request(step.method, path, step.contentType, body));
  }

  private remember(body: unknown): void {
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (typeof value !== 'object' || value === null) return;
      const object = value as {
        metadata?: { name?: string; generateName?: string; resourceVersion?: string };
        items?: unknown[];
      };
      const metadata = object.metadata;
      if (metadata?.resourceVersion) this.book.versions.add(metadata.resourceVersion);
      if (metadata?.name && metadata.generateName && metadata.name.startsWith(metadata.generateName))
        this.book.generated.set(metadata.name, metadata.generateName);
      if (Array.isArray(object.items)) object.items.forEach(visit);
    };
    visit(body);
  }
}
