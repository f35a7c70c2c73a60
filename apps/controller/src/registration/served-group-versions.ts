/**
 * The group/versions the API server serves, from discovery (docs/spec/registration.md §4): asked once
 * for every registration and kept until a CRD changes what is served. A discovery that failed is not
 * kept: kept, it failed every registration reconcile after it with the same error, without asking the
 * API server again, until some CRD happened to change.
 */
import type { DynamicClient } from '@scoby/controller-runtime';

export class ServedGroupVersions {
  readonly #discover: () => Promise<ReadonlySet<string>>;
  #asked: Promise<ReadonlySet<string>> | undefined;

  constructor(discover: () => Promise<ReadonlySet<string>>) {
    this.#discover = discover;
  }

  /** The served group/versions as apiVersion strings; one discovery shared by every caller. */
  get(): Promise<ReadonlySet<string>> {
    if (this.#asked !== undefined) return this.#asked;
    const asked = this.#discover();
    this.#asked = asked;
    asked.catch(() => {
      if (this.#asked === asked) this.#asked = undefined;
    });
    return asked;
  }

  /** A CRD changed what the API server serves: the next call asks again. */
  forget(): void {
    this.#asked = undefined;
  }
}

/** Served group/versions as apiVersion strings, from discovery. */
export async function discoverGroupVersions(client: DynamicClient): Promise<ReadonlySet<string>> {
  const core = await client.request<{ versions?: string[] }>('GET', '/api');
  const groups = await client.request<{ groups?: { versions?: { groupVersion: string }[] }[] }>(
    'GET',
    '/apis',
  );
  return new Set([
    ...(core.versions ?? []),
    ...(groups.groups ?? []).flatMap((group) =>
      (group.versions ?? []).map((version) => version.groupVersion),
    ),
  ]);
}
