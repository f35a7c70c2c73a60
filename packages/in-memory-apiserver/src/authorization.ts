/**
 * The in-memory server enforces no RBAC: every request is allowed. SelfSubjectAccessReviews answer
 * "allowed" too, unless a test denied the attributes asked about, so a client that checks its
 * permissions first (as Scoby does per registration) can be tested against a missing grant. Denials
 * change only these answers, never what the requests themselves may do.
 */
import { badRequest, ok, type Outcome } from './status.ts';

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
  /** Answers matching SelfSubjectAccessReviews with `allowed: false` until the returned function is called. */
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
