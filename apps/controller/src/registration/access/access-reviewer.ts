/**
 * Asks the API server, with SelfSubjectAccessReviews, whether the controller may do what a
 * registration needs. Answers are shared by every registration and kept for a while, so a steady
 * state costs no request per reconcile: a grant is believed for `grantedForMs` (or until a 403 makes
 * the reviewer forget). A refusal is kept only for `refusedForMs` (default: while it is being asked),
 * as an admin is about to fix it and the next reconcile of the registration should see the fix.
 */
import type { DynamicClient, ResourceRef } from '@scoby/controller-runtime';
import type { ResourceNeed } from './access-needs.ts';
import type { Denial } from './missing-access.ts';

export const ACCESS_REVIEW_RESOURCE: ResourceRef = {
  group: 'authorization.k8s.io',
  version: 'v1',
  resource: 'selfsubjectaccessreviews',
  namespaced: false,
};

export const DEFAULT_GRANTED_FOR_MS = 10 * 60_000;
export const DEFAULT_REFUSED_FOR_MS = 0;
/** A burst of 403s clears the answers once, not once per 403. */
export const FORGET_AT_MOST_EVERY_MS = 60_000;

export interface AccessReviewerOptions {
  /** Working namespaces; undefined asks about all namespaces at once. */
  namespaces: readonly string[] | undefined;
  now: () => number;
  grantedForMs?: number;
  refusedForMs?: number;
}

interface Question {
  namespace: string;
  verb: string;
  group: string;
  resource: string;
  subresource: string;
}

interface Answer {
  allowed: Promise<boolean>;
  askedAt: number;
  /** Known once settled: how long the answer is believed. */
  keepForMs?: number;
}

export class AccessReviewer {
  readonly #client: DynamicClient;
  readonly #options: AccessReviewerOptions;
  readonly #answers = new Map<string, Answer>();
  #forgotAt = Number.NEGATIVE_INFINITY;

  constructor(client: DynamicClient, options: AccessReviewerOptions) {
    this.#client = client;
    this.#options = options;
  }

  /** The verbs refused, in the order of `needs`; empty when everything is allowed. */
  async denials(needs: readonly ResourceNeed[]): Promise<Denial[]> {
    const namespaces = this.#options.namespaces ?? [''];
    const asked = needs.flatMap((need) =>
      need.verbs.flatMap((verb) =>
        (need.clusterScoped ? [''] : namespaces).map((namespace) => {
          const question: Question = {
            namespace,
            verb,
            group: need.group,
            resource: need.resource,
            subresource: need.subresource ?? '',
          };
          return { denial: { need, verb, namespace }, allowed: this.#ask(question) };
        }),
      ),
    );
    const answers = await Promise.all(asked.map((entry) => entry.allowed));
    return asked.filter((_, index) => !answers[index]).map((entry) => entry.denial);
  }

  /**
   * After a 403 the answers may be stale: forgets them, at most once a minute. True when it did, so
   * the caller has the registrations checked again.
   */
  forgetAfterForbidden(): boolean {
    const now = this.#options.now();
    if (now - this.#forgotAt < FORGET_AT_MOST_EVERY_MS) return false;
    this.#forgotAt = now;
    this.#answers.clear();
    return true;
  }

  #ask(question: Question): Promise<boolean> {
    const key = JSON.stringify(question);
    const now = this.#options.now();
    const known = this.#answers.get(key);
    if (known && (known.keepForMs === undefined || now - known.askedAt < known.keepForMs)) {
      return known.allowed;
    }
    const answer: Answer = { allowed: this.#review(question), askedAt: now };
    this.#answers.set(key, answer);
    answer.allowed.then(
      (allowed) => {
        answer.keepForMs = allowed
          ? (this.#options.grantedForMs ?? DEFAULT_GRANTED_FOR_MS)
          : (this.#options.refusedForMs ?? DEFAULT_REFUSED_FOR_MS);
      },
      () => {
        if (this.#answers.get(key) === answer) this.#answers.delete(key);
      },
    );
    return answer.allowed;
  }

  async #review(question: Question): Promise<boolean> {
    const { namespace, verb, group, resource, subresource } = question;
    const review = await this.#client.create(ACCESS_REVIEW_RESOURCE, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: {
        resourceAttributes: {
          ...(namespace === '' ? {} : { namespace }),
          verb,
          group,
          resource,
          ...(subresource === '' ? {} : { subresource }),
        },
      },
    });
    return (review as { status?: { allowed?: unknown } }).status?.allowed === true;
  }
}
