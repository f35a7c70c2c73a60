/**
 * Instance selection at run time (docs/spec/registration.md §6.8): the registrations as the registration
 * informer holds them and, only while some registration has a namespaceSelector, the labels of
 * Namespaces (an informer acquired then, so a registration without one needs no Namespace access).
 */
import type { KubeObject } from '@scoby/kube-objects';
import type { CRDRegistration } from '@scoby/registration';
import { compactJson } from '@scoby/kube-objects';
import type { InformerFactory, InformerHandle, ResourceRef } from '@scoby/controller-runtime';
import {
  candidates,
  claimsOf,
  selects,
  selectsEverything,
  servingRegistration,
  type RegistrationClaim,
} from './selection.ts';
import type { SelectionDecider, SelectionDecision } from '../selection/selection-decision.ts';

const NAMESPACE_RESOURCE: ResourceRef = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespaced: false,
};

export interface InstanceSelectionOptions {
  factory: InformerFactory;
  registrations(): CRDRegistration[];
}

export class InstanceSelection implements SelectionDecider {
  readonly #options: InstanceSelectionOptions;
  #namespaces: InformerHandle | undefined;

  constructor(options: InstanceSelectionOptions) {
    this.#options = options;
  }

  /** The registrations that can get an instance of `crd`, in serving order. */
  candidates(crd: string): RegistrationClaim[] {
    return candidates(claimsOf(this.#options.registrations()), crd);
  }

  /**
   * Whether selection is in play for the registration: it has a selector, or it shares the CRD with
   * another candidate. Without, it serves every instance as §6.4 says and reports no counts.
   */
  inPlay(name: string, crd: string): boolean {
    const serving = this.candidates(crd);
    return serving.length > 1 || serving.some((claim) => claim.name === name && !selectsEverything(claim));
  }

  /** What changes who serves which instance of `crd`: part of every candidate's configuration revision. */
  fingerprint(crd: string): string {
    return compactJson(this.candidates(crd));
  }

  /** Whether a candidate of `crd` selects by Namespace labels (Namespaces must then be read). */
  readsNamespaces(crd: string): boolean {
    return this.candidates(crd).some((claim) => claim.namespaceSelector !== undefined);
  }

  namespaces(crd: string): InformerHandle | undefined {
    return this.readsNamespaces(crd) ? this.#namespaceInformer() : undefined;
  }

  decide(name: string, crd: string, instance: KubeObject): SelectionDecision {
    const serving = this.candidates(crd);
    // One candidate that selects every instance: today's single active registration (§6.4).
    if (serving.length === 1 && serving[0]?.name === name && selectsEverything(serving[0]))
      return { kind: 'serve' };
    let namespace: Record<string, string> | undefined = {};
    if (serving.some((claim) => claim.namespaceSelector !== undefined)) {
      const namespaces = this.#namespaceInformer();
      if (!namespaces.informer.hasSynced()) return { kind: 'wait' };
      namespace =
        namespaces.informer.get(undefined, instance.metadata.namespace ?? '')?.metadata.labels ?? {};
    }
    const labels = { instance: instance.metadata.labels ?? {}, namespace };
    const by = servingRegistration(serving, labels);
    if (by === name) return { kind: 'serve' };
    if (by === undefined) return { kind: 'none' };
    const own = serving.find((claim) => claim.name === name);
    return { kind: 'other', by, selected: own !== undefined && selects(own, labels) };
  }

  stop(): void {
    this.#namespaces?.release();
    this.#namespaces = undefined;
  }

  #namespaceInformer(): InformerHandle {
    if (this.#namespaces) return this.#namespaces;
    const handle = this.#options.factory.acquire({ resource: NAMESPACE_RESOURCE });
    this.#namespaces = handle;
    return handle;
  }
}
