/**
 * Releasing the instance finalizers of a CRD a registration no longer manages (docs/spec/registration.md
 * §6.6 steps 2–3, §6.7), in the background: when the registration is deleted, and for the old CRD
 * when it moves to another.
 */
import type { CRDRegistration } from '@scoby/registration';
import { validateRegistration } from '@scoby/registration';
import { errorMessage } from '@scoby/controller-runtime';
import { hookDestination, type HookDestination } from '../instance/hook-request.ts';
import { BackgroundJobs } from './background-jobs.ts';
import type { RegistrationWorld } from './registration-world.ts';

export class FinalizerReleases {
  readonly #world: RegistrationWorld;
  readonly #releases = new BackgroundJobs();

  constructor(world: RegistrationWorld) {
    this.#world = world;
  }

  /** Resolves once the releases under way have ended. */
  drain(): Promise<void> {
    return this.#releases.drain();
  }

  /** Releases the finalizers of `crdName`'s instances beside whatever the registration does next (§6.2). */
  start(registration: CRDRegistration, crdName: string): void {
    this.#releases.run(this.#key(registration, crdName), this.#releaseJob(registration, crdName));
  }

  /**
   * §6.6 steps 2–3 of a deletion, in the background: `running` until the release has ended, then
   * `done` once, or its failure thrown once (retried by the caller's backoff).
   */
  poll(registration: CRDRegistration, crdName: string): 'running' | 'done' {
    const name = registration.metadata.name ?? '';
    return this.#releases.poll(
      this.#key(registration, crdName),
      this.#releaseJob(registration, crdName),
      () => this.#world.releaseSettled(name),
    );
  }

  /** Releases the instance finalizers of `crdName`; a failure is reported on the registration. */
  #releaseJob(registration: CRDRegistration, crdName: string): () => Promise<void> {
    const world = this.#world;
    return async () => {
      try {
        await world.controllers.release(registration.metadata.name ?? '', crdName, () =>
          this.#finalizeTarget(registration),
        );
      } catch (error) {
        world.events.emit(registration, 'Warning', 'FinalizerReleaseFailed', errorMessage(error));
        throw error;
      }
    };
  }

  /** The hook of a valid registration with a resolvable address: where the release's one best-effort finalize call goes (§6.7). */
  async #finalizeTarget(registration: CRDRegistration): Promise<HookDestination | undefined> {
    const world = this.#world;
    const validation = validateRegistration(registration, world.formFactors);
    if (!validation.ok || !validation.spec.hook) return undefined;
    const resolved = await world.resolveHook(validation.spec.hook);
    const formFactor = world.formFactors.resolve(registration.spec.workload.formFactor);
    if (!resolved.ok || !formFactor.ok) return undefined;
    return hookDestination(formFactor.formFactor.plugin, {
      url: resolved.url,
      timeoutMs: validation.spec.hook.timeoutMs,
    });
  }

  #key(registration: CRDRegistration, crdName: string): string {
    return `${registration.metadata.name ?? ''}\u0000${crdName}`;
  }
}
