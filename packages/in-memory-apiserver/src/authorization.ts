/**
 * The in-memory server has no RBAC objects: every request is allowed unless a test denied it.
 * A denial is a missing grant as kube-apiserver would see it: SelfSubjectAccessReviews about the
 * attributes it matches answer `allowed: false`, and the requests it matches are refused with
 * kube-apiserver's 403 Forbidden, so a client that checks its permissions first (as Scoby does per
 * registration) and then writes with the verbs granted is tested against both.
 */
import type { RequestFacts } from './faults.ts';
import { badRequest, ok, qualifiedResource, statusReply, type Outcome, type Reply } from './status.ts';

/** What a denial matches; absent fields match anything. `namespace: ''` is the cluster-wide question. */
export interface AccessDenial {
  user?: string;
  verb?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
}

export interface Authorization {
  /**
   * Answers matching SelfSubjectAccessReviews with `allowed: false`, and refuses matching requests
   * with 403, until the returned function is called.
   */
  deny(denial: AccessDenial): () => void;
  /** Removes every denial. */
  reset(): void;
}

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  resource?: string;
  subresource?: string;
}

function matches(denial: AccessDenial, user: string | undefined, attributes: ResourceAttributes): boolean {
  const same = (wanted: string | undefined, actual: string | undefined) =>
    wanted === undefined || wanted === (actual ?? '');
  return (
    same(denial.user, user) &&
    same(denial.verb, attributes.verb) &&
    same(denial.group, attributes.group) &&
    same(denial.resource, attributes.resource) &&
    same(denial.subresource, attributes.subresource) &&
    same(denial.namespace, attributes.namespace)
  );
}

export class AccessPolicy implements Authorization {
  readonly #denials = new Set<AccessDenial>();

  deny(denial: AccessDenial): () => void {
    const entry = { ...denial };
    this.#denials.add(entry);
    return () => void this.#denials.delete(entry);
  }

  reset(): void {
    this.#denials.clear();
  }

  /** kube-apiserver's 403 for a request a denial matches; undefined when it is allowed. */
  forbidden(user: string | undefined, request: RequestFacts): Reply | undefined {
    const attributes: ResourceAttributes = {
      verb: request.verb,
      group: request.type.group,
      resource: request.type.plural,
      subresource: request.subresource ?? '',
      namespace: request.namespace ?? '',
    };
    if (![...this.#denials].some((denial) => matches(denial, user, attributes))) return undefined;
    const resource = request.subresource
      ? `${request.type.plural}/${request.subresource}`
      : request.type.plural;
    const subject =
      request.name === undefined
        ? qualifiedResource(request.type)
        : `${qualifiedResource(request.type)} "${request.name}"`;
    const scope =
      request.namespace === undefined ? 'at the cluster scope' : `in the namespace "${request.namespace}"`;
    const message =
      `${subject} is forbidden: User "${user ?? 'admin'}" cannot ${request.verb} resource "${resource}" ` +
      `in API group "${request.type.group}" ${scope}`;
    return statusReply(403, 'Forbidden', message, {
      ...(request.name === undefined ? {} : { name: request.name }),
      ...(request.type.group === '' ? {} : { group: request.type.group }),
      kind: request.type.plural,
    });
  }

  /** The answer kube-apiserver gives (201 with `status`), for resource attributes only. */
  review(user: string | undefined, body: unknown): Outcome<unknown> {
    const spec = (body as { spec?: { resourceAttributes?: ResourceAttributes } } | undefined)?.spec;
    const attributes = spec?.resourceAttributes;
    if (attributes === undefined) {
      return badRequest('in-memory server: a SelfSubjectAccessReview needs spec.resourceAttributes');
    }
    const denied = [...this.#denials].some((denial) => matches(denial, user, attributes));
    return ok({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec,
      status: denied ? { allowed: false } : { allowed: true, reason: 'in-memory server: no RBAC' },
    });
  }
}
