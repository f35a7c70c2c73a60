/**
 * One registration's side of instance selection (docs/spec/registration.md §6.8): whether its controller
 * reconciles an instance, the Event and count refresh when who serves an instance changes, and the
 * counts of status.instances.
 */
import { labelValue } from '@scoby/formfactor';
import type { ObjectKey, Watch } from '@scoby/controller-runtime';
import { compactJson, type KubeObject } from '@scoby/kube-objects';
import type { SelectionDecider, SelectionDecision } from '../selection/selection-decision.ts';
import type { ChildStore } from './children/write-children.ts';
import { instanceHolders } from './holders.ts';

export interface SelectionGateOptions {
  selection: SelectionDecider;
  /** Says on the registration that an instance it selects is served by an older one. */
  servedByOther?(instance: string, by: string): void;
  /** Who serves one of the instances changed while selection is in play: the counts are due again. */
  selectionChanged?(): void;
}

/** What the controller does with an instance: reconcile it, leave it, or look again soon. */
export type GateVerdict = 'reconcile' | 'leave' | 'wait';

export class SelectionGate {
  readonly #options: SelectionGateOptions;
  /** Last judgement per instance key: an Event and a count refresh only when it changes. */
  readonly #judged = new Map<string, string>();

  constructor(options: SelectionGateOptions) {
    this.#options = options;
  }

  /**
   * The instance's verdict for registration `name` of `crd`: the instance it serves is reconciled; a
   * deleted one nobody selects is finalized by the registration whose children it has (the one that
   * added the finalizer) or, with none, by the first candidate; every other one is left alone.
   */
  judge(name: string, crd: string, key: string, instance: KubeObject, children: ChildStore): GateVerdict {
    const decision = this.#options.selection.decide(name, crd, instance);
    if (decision.kind === 'wait') return 'wait';
    this.#remember(name, crd, key, decision);
    if (decision.kind === 'serve') return 'reconcile';
    if (decision.kind === 'other' || !instance.metadata.deletionTimestamp) return 'leave';
    const holders = instanceHolders(instance, children);
    if (holders.includes(labelValue(name))) return 'reconcile';
    return holders.length === 0 && this.#options.selection.candidates(crd)[0]?.name === name
      ? 'reconcile'
      : 'leave';
  }

  /** The instance is gone. */
  forget(name: string, crd: string, key: string): void {
    if (this.#judged.delete(key) && this.#options.selection.inPlay(name, crd))
      this.#options.selectionChanged?.();
  }

  /** Whether registration `name` of `crd` serves `instance` (reconciles it). */
  serves(name: string, crd: string, instance: KubeObject): boolean {
    return this.#options.selection.decide(name, crd, instance).kind === 'serve';
  }

  /** status.instances over `instances` (docs/spec/registration.md §5.1). */
  counts(
    name: string,
    crd: string,
    instances: readonly KubeObject[],
  ): { served: number; servedByOthers: number } {
    const counts = { served: 0, servedByOthers: 0 };
    for (const instance of instances) {
      const decision = this.#options.selection.decide(name, crd, instance);
      if (decision.kind === 'serve') counts.served++;
      else if (decision.kind === 'other' && decision.selected) counts.servedByOthers++;
    }
    return counts;
  }

  #remember(name: string, crd: string, key: string, decision: SelectionDecision): void {
    const verdict =
      decision.kind === 'other' ? `other\u0000${decision.by}\u0000${decision.selected}` : decision.kind;
    if (this.#judged.get(key) === verdict) return;
    this.#judged.set(key, verdict);
    if (decision.kind === 'other' && decision.selected) this.#options.servedByOther?.(key, decision.by);
    if (this.#options.selection.inPlay(name, crd)) this.#options.selectionChanged?.();
  }
}

/**
 * The watch of the Namespaces' informer: a Namespace that appears or whose labels change has its
 * instances (`instancesIn`) judged again (docs/spec/registration.md §6.8); at the runtime's priority
 * of the event, so low for the Namespaces of the informer's initial list.
 */
export function namespaceWatch(
  source: Watch['source'],
  instancesIn: (namespace: string) => readonly ObjectKey[],
): Watch {
  return {
    source,
    map: ({ type, object, old }) => {
      const relabelled =
        type === 'update' &&
        compactJson(object.metadata.labels ?? {}) !== compactJson(old?.metadata.labels ?? {});
      return type === 'add' || relabelled ? instancesIn(object.metadata.name ?? '') : [];
    },
  };
}
