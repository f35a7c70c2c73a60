/**
 * The registration reconcile (docs/spec/registration.md §6.1): validate, find the CRD, check scope, ownership and
 * the hook address, run the instance controller, and report status. Writes only differences.
 */
import { unservedApiMessage } from '@scoby/formfactor';
import { compactJson } from '@scoby/kube-objects';
import {
  crdAlreadyRegisteredMessage,
  crdClusterScopedMessage,
  FINALIZER,
  parsePath,
  validateRegistration,
  type CRDRegistration,
  type NormalizedRegistrationSpec,
} from '@scoby/registration';
import { inspectCrd, type CrdInfo } from '../crd/inspect.ts';
import { specPathProblems } from '../crd/spec-paths.ts';
import { takeOverLegacyFields } from '../field-manager/take-over.ts';
import { statusPathAllowed } from '../crd/status-paths.ts';
import { formatTime, type ConditionValue } from '../status/conditions.ts';
import {
  setFinalizer,
  SupersededVersions,
  writeStatus,
  type CallOptions,
  type ReconcileResult,
} from '@scoby/controller-runtime';
import type { InstanceConfig, WriteVerbs } from '../instance/instance-config.ts';
import { instanceConditionSet } from '../instance/condition-set.ts';
import { callsHookAt } from '../instance/declared-phases.ts';
import type { ControllerOutcome } from '../instance/controller-host.ts';
import { checkRegistrationAccess } from './access/registration-access.ts';
import { MISSING_PERMISSIONS_REASON } from './access/missing-access.ts';
import { blockedBy, claimsOf } from './selection.ts';
import { FinalizerReleases } from './finalizer-releases.ts';
import { controllerRuns, desiredRegistrationStatus } from './registration-status.ts';
import { REGISTRATION_RESOURCE, type RegistrationWorld } from './registration-world.ts';
import {
  restartOfStartedGeneration,
  SPEC_PATH_NOT_IN_SCHEMA,
  SPEC_PATHS_CONDITION,
  type RegistrationFindings,
} from './conditions.ts';

/** Nothing announces a new grant (aggregated ClusterRoles change without an event Scoby watches). */
export const MISSING_PERMISSIONS_RECHECK_MS = 15_000;

/** How soon a registration reconciled before the CRD cache synced is tried again. */
export const CRD_CACHE_SYNC_POLL_MS = 100;

function apiErrorNotFound(name: string): string {
  return `customresourcedefinitions.apiextensions.k8s.io "${name}" not found`;
}

/** The older registration that leaves `name` no instance of `crd` (§6.4, §6.8), if any. */
function blocker(registrations: readonly CRDRegistration[], crd: string, name: string): string | undefined {
  return blockedBy(claimsOf(registrations), crd, name);
}

export class RegistrationReconciler {
  readonly #world: RegistrationWorld;
  /** Versions replaced by this reconciler's writes: a cache still showing one is stale. */
  readonly #superseded = new SupersededVersions();
  /** Configuration revision already warned about per registration (one Event per configuration). */
  readonly #warnedRevision = new Map<string, string>();
  /** Finalizer releases, off the registration work path: their hooks may hang for their timeout. */
  readonly #releases: FinalizerReleases;

  constructor(world: RegistrationWorld) {
    this.#world = world;
    this.#releases = new FinalizerReleases(world);
  }

  /** Resolves once the finalizer releases under way have ended. */
  drainReleases(): Promise<void> {
    return this.#releases.drain();
  }

  /**
   * The result tells the queue what next: a requeue to look again later (the CRD cache not synced,
   * a permission recheck, a hook address refresh), an error to retry with backoff, or nothing when
   * an event brings the registration back (an instance controller synced, a release ended). With
   * `signal` fired no further write is sent.
   */
  async reconcile(
    registration: CRDRegistration | undefined,
    name: string,
    signal?: AbortSignal,
  ): Promise<ReconcileResult> {
    const world = this.#world;
    const call = signal === undefined ? {} : { signal };
    if (!registration) {
      this.#superseded.forget(name);
      await world.controllers.pause(name);
      return undefined;
    }
    // The watch event of our last write brings the newer object and another reconcile.
    if (this.#superseded.isStale(name, registration.metadata.resourceVersion)) return undefined;
    // Status written from an incomplete CRD cache would say CRDERROR for a moment after every start.
    if (!world.crdsSynced()) return { requeueAfterMs: CRD_CACHE_SYNC_POLL_MS };
    if (registration.metadata.deletionTimestamp) return this.#delete(registration, call);
    let current = registration;
    const takenOver = await takeOverLegacyFields(world.client, REGISTRATION_RESOURCE, current, {
      ...call,
      ...(world.logger === undefined ? {} : { logger: world.logger }),
    });
    if (takenOver !== undefined) {
      this.#superseded.wrote(name, registration.metadata.resourceVersion, takenOver.metadata.resourceVersion);
      current = takenOver as CRDRegistration;
    }
    if (!(current.metadata.finalizers ?? []).includes(FINALIZER)) {
      current = ((await setFinalizer(world.client, REGISTRATION_RESOURCE, current, FINALIZER, true, call)) ??
        current) as CRDRegistration;
      this.#superseded.wrote(name, registration.metadata.resourceVersion, current.metadata.resourceVersion);
    }

    const validation = validateRegistration(current, world.formFactors);
    const crdName = validation.ok ? validation.spec.crd : String(current.spec?.crd ?? '');
    const running = world.controllers.crdOf(name);
    // The old CRD's instances are released beside the new controller (§6.2): other CRD, other instances.
    if (running !== undefined && running !== crdName) {
      this.#releases.start(current, running);
    }
    const crdObject = crdName === '' ? undefined : world.crd(crdName);
    const info = crdObject ? inspectCrd(crdObject) : undefined;
    const findings: RegistrationFindings = {
      crdName,
      validation: validation.ok
        ? { ok: true }
        : { ok: false, reason: validation.reason, message: validation.message },
      crd: info
        ? { kind: 'found', servesVersion: info.version !== undefined }
        : { kind: 'missing', message: apiErrorNotFound(crdName) },
    };
    if (validation.ok && crdObject && info?.version !== undefined)
      findings.specPaths = specPathProblems(current.spec, crdObject, info.version);
    let hookUrl: string | undefined;
    if (validation.ok && info?.version !== undefined) {
      const checked = await this.#startController(current, validation.spec, {
        ...info,
        version: info.version,
      });
      findings.controller = checked.outcome;
      if (checked.writeVerbs !== undefined) findings.writeVerbs = checked.writeVerbs;
      hookUrl = checked.hookUrl;
    } else {
      await world.controllers.pause(name);
    }
    // hookURL: removed with spec.hook, kept while the spec is invalid or resolution fails (§5.1).
    const hookAnnotation = !validation.ok ? undefined : validation.spec.hook ? hookUrl : null;
    if (!restartOfStartedGeneration(current.status, current.metadata.generation, findings)) {
      await this.#writeStatus(current, findings, hookAnnotation, call);
    }
    const outcome = findings.controller;
    if (
      outcome?.kind === 'failed' &&
      (outcome.reason === 'HOOKFAILED' || outcome.reason === 'CONTROLLERFAILED')
    ) {
      return { error: new Error(outcome.message) };
    }
    // The instance controller's sync enqueues the registration again.
    if (outcome?.kind === 'starting') return undefined;
    if (outcome?.kind === 'failed' && outcome.reason === MISSING_PERMISSIONS_REASON) {
      return { requeueAfterMs: MISSING_PERMISSIONS_RECHECK_MS };
    }
    const refreshAfterMs = world.hookRefreshMs;
    return validation.ok && validation.spec.hook?.address?.ref && refreshAfterMs !== undefined
      ? { requeueAfterMs: refreshAfterMs }
      : undefined;
  }

  async #startController(
    registration: CRDRegistration,
    spec: NormalizedRegistrationSpec,
    crd: CrdInfo & { version: string },
  ): Promise<{ outcome: ControllerOutcome; hookUrl?: string; writeVerbs?: WriteVerbs }> {
    const world = this.#world;
    const name = registration.metadata.name ?? '';
    const pause = async (outcome: ControllerOutcome, hookUrl?: string) => {
      await world.controllers.pause(name);
      return hookUrl === undefined ? { outcome } : { outcome, hookUrl };
    };
    if (!crd.namespaced) {
      return pause({
        kind: 'failed',
        reason: 'UnsupportedCRDScope',
        message: crdClusterScopedMessage(crd.name),
      });
    }
    const owner = blocker(world.registrations(), crd.name, name);
    if (owner !== undefined) {
      return pause({
        kind: 'failed',
        reason: 'CRDAlreadyRegistered',
        message: crdAlreadyRegisteredMessage(crd.name, owner),
      });
    }
    let hookUrl: string | undefined;
    if (spec.hook) {
      const resolved = await world.resolveHook(spec.hook);
      if (!resolved.ok) return pause({ kind: 'failed', reason: resolved.reason, message: resolved.message });
      hookUrl = resolved.url;
    }
    const resolvedFormFactor = world.formFactors.resolve(registration.spec.workload.formFactor);
    if (!resolvedFormFactor.ok) {
      // Validation already passed, so this cannot happen unless the plugin set changed under us.
      const message = resolvedFormFactor.problems.map((problem) => problem.message).join('; ');
      return pause({ kind: 'failed', reason: 'CONTROLLERFAILED', message }, hookUrl);
    }
    const { plugin, conditionTypes } = resolvedFormFactor.formFactor;
    const served = await world.servedGroupVersions();
    const unserved = unservedApiMessage(plugin, served);
    if (unserved !== undefined)
      return pause({ kind: 'failed', reason: 'CONTROLLERFAILED', message: unserved }, hookUrl);
    const hook = spec.hook;
    const conditionSet = instanceConditionSet(conditionTypes, spec);
    const prunableKinds = world.formFactors.allManagedKinds().filter((kind) => served.has(kind.apiVersion));
    const finalize = callsHookAt(hook, 'deletion');
    const access = await checkRegistrationAccess(world.client, world.access, {
      instance: { group: crd.group, resource: crd.plural, statusSubresource: crd.status.subresource },
      finalizeHook: finalize,
      workloadKinds: plugin.managedKinds,
      prunableKinds,
      readsNamespaces: world.selection?.readsNamespaces(crd.name) ?? false,
    });
    if (!access.allowed) return pause(access.outcome, hookUrl);
    const { writeVerbs } = access;
    const config: InstanceConfig = {
      registrationName: name,
      registrationUid: registration.metadata.uid ?? '',
      revision: compactJson([
        registration.metadata.generation ?? 0,
        hookUrl ?? null,
        crd.version,
        crd.status,
        prunableKinds,
        writeVerbs,
        // Another registration's selection changing moves instances to or from this one (§6.8).
        world.selection?.fingerprint(crd.name) ?? null,
      ]),
      spec,
      plugin,
      crd,
      instanceResource: world.resourceForCrd(crd),
      ...(hook && hookUrl !== undefined
        ? {
            hook: { url: hookUrl, timeoutMs: hook.timeoutMs },
          }
        : {}),
      writeVerbs,
      prunableKinds,
      ...conditionSet,
    };
    this.#warnStatusPaths(registration, config);
    const outcome = await world.controllers.ensure(config);
    return hookUrl === undefined ? { outcome, writeVerbs } : { outcome, hookUrl, writeVerbs };
  }

  /** docs/spec/children-and-status.md §8.9: statusConfiguration.add paths the status schema does not admit. */
  #warnStatusPaths(registration: CRDRegistration, config: InstanceConfig): void {
    const name = config.registrationName;
    if (this.#warnedRevision.get(name) === config.revision) return;
    this.#warnedRevision.set(name, config.revision);
    const rejected = config.spec.statusConfiguration.add
      .map((entry) => entry.path)
      .filter((path) => {
        const parsed = parsePath(path, 'status');
        return (
          !config.crd.status.subresource ||
          !parsed.ok ||
          !statusPathAllowed(config.crd.status.schema, parsed.segments.slice(1))
        );
      });
    if (rejected.length === 0) return;
    this.#world.events.emit(
      registration,
      'Warning',
      'StatusPathNotInSchema',
      `statusConfiguration.add paths not allowed by the status schema of CRD "${config.crd.name}" version ${config.crd.version}: ${rejected.join(', ')}`,
    );
  }

  /**
   * §5.5: a Warning Event and a log line when the spec paths the CRD's schema lacks change (a
   * registration whose paths stay wrong is not reported again on every reconcile).
   */
  #warnOfSpecPaths(
    registration: CRDRegistration,
    stored: unknown,
    warning: ConditionValue | undefined,
  ): void {
    if (warning === undefined) return;
    const before = Array.isArray(stored)
      ? (stored as { type?: unknown; message?: unknown }[]).find(
          (entry) => entry.type === SPEC_PATHS_CONDITION,
        )
      : undefined;
    if (before?.message === warning.message) return;
    this.#world.events.emit(registration, 'Warning', SPEC_PATH_NOT_IN_SCHEMA, warning.message);
    this.#world.logger?.warn({ registration: registration.metadata.name ?? '' }, warning.message);
  }

  /** §6.6. */
  async #delete(registration: CRDRegistration, call: CallOptions): Promise<ReconcileResult> {
    const world = this.#world;
    const name = registration.metadata.name ?? '';
    const crdName = world.controllers.crdOf(name) ?? String(registration.spec?.crd ?? '');
    if (crdName !== '' && blocker(world.registrations(), crdName, name) === undefined) {
      // The release's end enqueues the registration again.
      if (this.#releases.poll(registration, crdName) === 'running') return undefined;
    } else {
      await world.controllers.pause(name);
    }
    await setFinalizer(world.client, REGISTRATION_RESOURCE, registration, FINALIZER, false, call);
    return undefined;
  }

  /** §5: conditions, observedGeneration and annotations.hookURL (null = remove, undefined = keep). */
  async #writeStatus(
    registration: CRDRegistration,
    findings: RegistrationFindings,
    hookUrl: string | null | undefined,
    call: CallOptions,
  ) {
    const world = this.#world;
    const stored = (registration.status ?? {}) as Record<string, unknown>;
    const name = registration.metadata.name ?? '';
    const countsDue = controllerRuns(findings) && world.selection?.inPlay(name, findings.crdName) === true;
    const { status: desired, specPathsWarning } = desiredRegistrationStatus(registration, findings, hookUrl, {
      now: formatTime(world.now()),
      counts: countsDue ? world.controllers.selectionCounts(name) : undefined,
      countsDue,
    });
    this.#warnOfSpecPaths(registration, stored.conditions, specPathsWarning);
    const written = await writeStatus(world.client, REGISTRATION_RESOURCE, registration, desired, call);
    if (!written) return;
    this.#superseded.wrote(
      registration.metadata.name ?? '',
      registration.metadata.resourceVersion,
      written.metadata.resourceVersion,
    );
  }
}
