/**
 * What the registration reconcile works with (docs/spec/registration.md §6): the API, the caches,
 * the instance controllers, hook resolution and access checks, as the process wires them
 * (process/registration-wiring.ts).
 */
import type { FormFactorRegistry } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import type { Logger } from 'pino';
import type { CRDRegistration, NormalizedHook } from '@scoby/registration';
import type { DynamicClient, ResourceRef } from '@scoby/controller-runtime';
import type { CrdInfo } from '../crd/inspect.ts';
import type { EventSink } from '../instance/instance-events.ts';
import type { InstanceControllerHost } from '../instance/controller-host.ts';
import type { HookTarget } from '../hook-modules/hook-target.ts';
import type { AccessCheck } from './access/registration-access.ts';

export const REGISTRATION_RESOURCE: ResourceRef = {
  group: 'scoby.triggermesh.io',
  version: 'v1alpha1',
  resource: 'crdregistrations',
  namespaced: false,
};

/** Instance selection as the registration reconcile needs it (docs/spec/registration.md §6.8). */
export interface SelectionView {
  /** Changes whenever who serves which instance of the CRD may change. */
  fingerprint(crd: string): string;
  readsNamespaces(crd: string): boolean;
  inPlay(name: string, crd: string): boolean;
}

export interface RegistrationWorld {
  client: DynamicClient;
  events: EventSink;
  formFactors: FormFactorRegistry;
  controllers: InstanceControllerHost;
  crd(name: string): KubeObject | undefined;
  /** Whether `crd` answers from a complete list: before that, a CRD it lacks may well exist. */
  crdsSynced(): boolean;
  registrations(): CRDRegistration[];
  /** Served group/versions as apiVersion strings (`v1` for the core group, `apps/v1`, …). */
  servedGroupVersions(): Promise<ReadonlySet<string>>;
  /** The hook's URL: its resolved address, or `module:<name>` for an allowed, loaded module. */
  resolveHook(hook: NormalizedHook): Promise<HookTarget>;
  resourceForCrd(info: CrdInfo & { version: string }): ResourceRef;
  /** Whether the controller may do what a registration needs (SelfSubjectAccessReviews). */
  access: AccessCheck;
  /**
   * Period of re-resolving a hook address given by `ref`: referenced objects are not watched
   * (docs/spec/address.md §2), so a changed address is picked up within this bound. Absent: never.
   */
  hookRefreshMs?: number;
  selection?: SelectionView;
  /** A release started by a reconcile of the registration has ended: reconcile it again. */
  releaseSettled(registrationName: string): void;
  now(): Date;
  logger?: Logger;
}
