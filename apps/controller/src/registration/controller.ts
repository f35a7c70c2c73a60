/**
 * The registration controller (docs/spec/registration.md §6): watches CRDRegistrations, CRDs and Scoby's
 * own ConfigMaps, reconciles registrations and runs one instance controller per active registration.
 */
import { labelValue, NAME_LABEL } from '@scoby/formfactor';
import { compareByteOrder } from '@scoby/kube-objects';
import type { HookClient } from '@scoby/hooks-v1/client';
import type { CRDRegistration } from '@scoby/registration';
import type { Logger } from 'pino';
import {
  Controller,
  type InformerFactory,
  type InformerHandle,
  type ObjectKey,
  type QueueHealth,
  type WorkSharing,
  writeScopes,
} from '@scoby/controller-runtime';
import type { InstanceControllers } from '../instance/controllers.ts';
import { MANAGED_BY_SELECTOR } from '../instance/controller.ts';
import type { InstanceConfig } from '../instance/instance-config.ts';
import type { EventSink } from '../instance/instance-events.ts';
import type { ControllerMetrics } from '../config/index.ts';
import type { AccessReviewer } from './access/access-reviewer.ts';
import { registrationEvents } from './events.ts';
import type { RegistrationReconciler } from './reconcile.ts';
import { REGISTRATION_RESOURCE } from './registration-world.ts';
import type { InstanceSelection } from './instance-selection.ts';
import { EventBudget } from './event-budget.ts';

/** InstanceServedByOther Events per registration and minute (docs/spec/registration.md §6.8). */
const SERVED_BY_OTHER_EVENTS_PER_MINUTE = 10;

/** Registrations reconciled at once. */
const REGISTRATION_WORKERS = 2;

export interface RegistrationControllerParts {
  factory: InformerFactory;
  /** The CRDs' informer, held for the registration controller and its instance controllers. */
  crds: InformerHandle;
  /** Scoby's own ConfigMaps' informer. */
  configMaps: InformerHandle;
  hookClient: HookClient;
  instanceControllers: InstanceControllers;
  selection: InstanceSelection;
  access: AccessReviewer;
  reconciler: RegistrationReconciler;
  events: EventSink;
  metrics: ControllerMetrics;
  health: QueueHealth;
  sharing?: Pick<WorkSharing, 'owns' | 'kick'> | undefined;
  reconcileTimeoutMs: number;
  now(): Date;
  logger: Logger;
}

/**
 * The registration controller and everything it runs while this process leads: the informers on
 * CRDRegistrations, CRDs and Scoby's ConfigMaps, the registration work queue and reconciler, and the
 * instance controllers of the active registrations. With active-active replicas (`sharing`) every
 * replica runs it, and it reconciles, runs controllers for and writes on only the registrations
 * whose Leases this replica holds, each in that registration's write scope (docs/spec/registration.md §9).
 * Its collaborators are built by the process's composition root (process/registration-wiring.ts).
 */
export class RegistrationController {
  readonly #controller: Controller<CRDRegistration>;
  readonly #parts: RegistrationControllerParts;
  readonly #unwatchHealth: () => void;
  readonly #servedByOtherBudget: EventBudget;

  constructor(parts: RegistrationControllerParts) {
    this.#parts = parts;
    const { sharing, logger, metrics, events } = parts;
    this.#servedByOtherBudget = new EventBudget(SERVED_BY_OTHER_EVENTS_PER_MINUTE, 60_000, () =>
      parts.now().getTime(),
    );
    this.#controller = new Controller<CRDRegistration>({
      name: 'crdregistrations',
      factory: parts.factory,
      for: { resource: REGISTRATION_RESOURCE, group: REGISTRATION_RESOURCE.group, kind: 'CRDRegistration' },
      reconcile: async (key, context) => {
        // Another replica holds it; the hand-over that brings it here enqueues it again.
        if (sharing && !sharing.owns(key.name)) return;
        const result = await parts.reconciler.reconcile(this.#controller.get(key), key.name, context.signal);
        if (result && 'error' in result) {
          const message = result.error instanceof Error ? result.error.message : String(result.error);
          logger.error({ registration: key.name, message }, 'registration reconcile failed');
        }
        return result;
      },
      ...(sharing === undefined ? {} : { writeScope: (key: ObjectKey) => key.name }),
      concurrency: REGISTRATION_WORKERS,
      observer: metrics.queueObserver('crdregistrations', REGISTRATION_WORKERS),
      reconcileTimeoutMs: parts.reconcileTimeoutMs,
      logger,
    });
    this.#unwatchHealth = parts.health.watch('crdregistrations', this.#controller);
    this.#wire();
    // A registration that comes or goes changes the assignment: the replicas look at once.
    if (sharing) {
      this.#controller.informer.addHandlers({ add: () => sharing.kick(), delete: () => sharing.kick() });
    }
    // Condition changes become Events; an error line for each Warning.
    this.#controller.informer.addHandlers({
      update: (registration, old) => {
        const name = registration.metadata.name ?? '';
        // Only the replica that wrote the status says so.
        if (sharing && !sharing.owns(name)) return;
        this.#inScope(name, () => {
          for (const { type, reason, message } of registrationEvents(old, registration)) {
            events.emit(registration, type, reason, message);
            const fields = { registration: name, reason, message };
            if (type === 'Warning') logger.error(fields, 'registration not ready');
          }
        });
      },
    });
    logger.info({ activeActive: sharing !== undefined }, 'registration controller started');
  }

  /** The registration is reconciled again. */
  enqueue(name: string): void {
    this.#controller.enqueue(this.#controller.keyFor('', name));
  }

  /** Every registration, as the cache holds them. */
  registrations(): CRDRegistration[] {
    return this.#controller.informer.informer.list();
  }

  /**
   * Says on the registration that an older registration serves an instance it selects, at most
   * SERVED_BY_OTHER_EVENTS_PER_MINUTE times a minute (docs/spec/registration.md §6.8).
   */
  servedByOther(name: string, instance: string, by: string): void {
    const registration = this.#controller.get(this.#controller.keyFor('', name));
    if (!registration || !this.#servedByOtherBudget.take(name)) return;
    this.#parts.events.emit(
      registration,
      'Normal',
      'InstanceServedByOther',
      `instance ${instance} is served by CRDRegistration "${by}", which is older and selects it too`,
    );
  }

  /** A request was refused (403): permissions changed, so the registrations are checked again. */
  forbidden(): void {
    if (!this.#parts.access.forgetAfterForbidden()) return;
    this.#controller.enqueueAll();
  }

  /** Every registration's name, as the cache holds them. */
  registrationNames(): string[] {
    return this.registrations().map((registration) => registration.metadata.name ?? '');
  }

  /** Active-active: this replica now holds the registration; it is reconciled here from now on. */
  acquired(name: string, replica: string): void {
    const registration = this.#controller.get(this.#controller.keyFor('', name));
    if (registration) {
      this.#inScope(name, () =>
        this.#parts.events.emit(
          registration,
          'Normal',
          'RegistrationAcquired',
          `registration acquired by replica ${replica}`,
        ),
      );
    }
    this.enqueue(name);
  }

  /**
   * Active-active: this replica no longer holds the registration: its instance controller stops
   * (in-flight reconciles end, their writes already fenced) before its Lease is released.
   */
  async released(name: string): Promise<void> {
    await this.#parts.instanceControllers.pause(name);
  }

  /** Writes made by `run` are the registration's: fenced by its Lease in active-active mode. */
  #inScope(name: string, run: () => void): void {
    if (this.#parts.sharing) writeScopes.run(name, run);
    else run();
  }

  synced(): boolean {
    return this.#controller.hasSynced() && this.#parts.configMaps.informer.hasSynced();
  }

  /**
   * Cuts every hook call in flight and later: a reconcile waiting on a hook (whose timeout may be
   * days) ends without recording anything instead of holding a stopping process past its grace period.
   */
  cutHookCalls(): void {
    this.#parts.hookClient.cutCalls();
  }

  async stop(): Promise<void> {
    await this.#controller.stop();
    this.#unwatchHealth();
    await this.#parts.reconciler.drainReleases();
    await this.#parts.instanceControllers.stopAll();
    this.#parts.selection.stop();
    this.#parts.crds.release();
    this.#parts.configMaps.release();
    this.#parts.hookClient.close();
    this.#parts.logger.info('registration controller stopped');
  }

  /** The registrations naming the CRD `crdName`. */
  #registrationsFor(crdName: string): ObjectKey[] {
    return this.registrations()
      .filter((registration) => registration.spec?.crd === crdName)
      .map((registration) => this.#controller.keyFor('', registration.metadata.name ?? ''));
  }

  #wire(): void {
    // Ownership of a CRD can move between registrations (docs/spec/registration.md §6.4): an event
    // of one registration reconciles every registration of its CRD, before and after the change.
    this.#controller.watch<CRDRegistration>({
      source: this.#controller.informer,
      map: ({ object, old }) =>
        [...new Set([object.spec?.crd, old?.spec?.crd])].flatMap((crd) =>
          crd ? this.#registrationsFor(crd) : [],
        ),
    });
    this.#controller.watch({
      source: this.#parts.crds,
      map: ({ object }) => this.#registrationsFor(object.metadata.name ?? ''),
    });
  }
}

/**
 * Active-active replicas cache only the children of the registrations they hold: those of the
 * registrations of the same CRD, since an instance moving between them (§6.4, §6.8) prunes the
 * other's children and a deleted instance is finalized by the one whose children it has
 * (docs/spec/registration.md §9.6).
 */
export function childSelectorOf(config: InstanceConfig, registrations: readonly CRDRegistration[]): string {
  const names = new Set([config.registrationName]);
  for (const registration of registrations) {
    if (registration.spec?.crd === config.crd.name && registration.metadata.name)
      names.add(registration.metadata.name);
  }
  const values = [...new Set([...names].map(labelValue))].sort(compareByteOrder);
  return `${MANAGED_BY_SELECTOR},${NAME_LABEL} in (${values.join(',')})`;
}
