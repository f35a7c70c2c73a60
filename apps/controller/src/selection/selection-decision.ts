/**
 * Who serves an instance of a CRD that several registrations may claim (docs/spec/registration.md
 * §6.8), as one registration's instance controller asks it. Both wings read it: the registration wing
 * answers (registration/instance-selection.ts), the instance wing's gate acts on the answer
 * (instance/selection-gate.ts).
 */
import type { InformerHandle } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';

/** Who serves an instance, as one registration sees it. */
export type SelectionDecision =
  | { kind: 'serve' }
  /** An older registration serves it; `selected`: this registration's selection matches it too. */
  | { kind: 'other'; by: string; selected: boolean }
  /** No registration's selection matches it. */
  | { kind: 'none' }
  /** Namespace labels are not known yet. */
  | { kind: 'wait' };

/** What an instance controller asks of instance selection. */
export interface SelectionDecider {
  /** Who serves `instance` of `crd`, as registration `name` sees it. */
  decide(name: string, crd: string, instance: KubeObject): SelectionDecision;
  /** The registrations that can get an instance of `crd`, in serving order. */
  candidates(crd: string): readonly { name: string }[];
  /** Whether selection is in play for the registration (it reports counts and selection Events). */
  inPlay(name: string, crd: string): boolean;
  /**
   * The Namespaces' informer while a candidate of `crd` selects by Namespace labels (acquired then,
   * one for the process); absent otherwise. An instance controller watches it to judge the instances
   * of a Namespace again when its labels change or it appears.
   */
  namespaces(crd: string): InformerHandle | undefined;
}
