/**
 * The status a registration reconcile writes (docs/spec/registration.md §5): its conditions,
 * observedGeneration, annotations.hookURL, writeVerbs and instance counts, from what it found and
 * the status stored. Pure: the reconcile writes the answer (only when it differs).
 */
import type { CRDRegistration } from '@scoby/registration';
import {
  initializeConditions,
  setConditionValues,
  settleConditions,
  type ConditionValue,
} from '../status/conditions.ts';
import { registrationConditions, SPEC_PATHS_CONDITION, type RegistrationFindings } from './conditions.ts';
import { registrationKstatus } from './registration-kstatus.ts';
import { kstatusValues } from '../status/kstatus.ts';

const CONDITION_TYPES = ['CRDExists', 'ControllerReady', 'Ready'];

/** Whether the registration's instance controller runs (starting or started). */
export function controllerRuns(findings: RegistrationFindings): boolean {
  return findings.controller?.kind === 'starting' || findings.controller?.kind === 'started';
}

export interface StatusInputs {
  /** The transition time of conditions that change, formatted. */
  now: string;
  /** Whether status.instances is due: the controller runs and selection is in play for its CRD (§5.1). */
  countsDue: boolean;
  /** The running controller's counts; absent while it has not synced (the stored counts stay). */
  counts: { served: number; servedByOthers: number } | undefined;
}

/**
 * The desired status, and the warning condition of spec paths the CRD's schema lacks (§5.5), if any.
 * `hookUrl`: null removes annotations.hookURL, undefined keeps it.
 */
export function desiredRegistrationStatus(
  registration: CRDRegistration,
  findings: RegistrationFindings,
  hookUrl: string | null | undefined,
  inputs: StatusInputs,
): { status: Record<string, unknown>; specPathsWarning: ConditionValue | undefined } {
  const { now } = inputs;
  const stored = (registration.status ?? {}) as Record<string, unknown>;
  const values = registrationConditions(findings);
  // Reconciling or Stalled only while it holds (§5.6): present in the types only then.
  const kstatus = registrationKstatus(values);
  const types = [
    ...CONDITION_TYPES,
    ...(values.SpecPathsInSchema ? [SPEC_PATHS_CONDITION] : []),
    ...(kstatus ? [kstatus.type] : []),
  ];
  const conditions = settleConditions(
    setConditionValues(initializeConditions(stored.conditions, types, now), {
      ...values,
      ...kstatusValues(kstatus),
    }),
    stored.conditions,
    now,
  );
  const annotations = { ...((stored.annotations as Record<string, string> | undefined) ?? {}) };
  if (hookUrl === null) delete annotations.hookURL;
  else if (hookUrl !== undefined) annotations.hookURL = hookUrl;
  const status: Record<string, unknown> = {
    ...stored,
    conditions,
    observedGeneration: registration.metadata.generation,
  };
  if (Object.keys(annotations).length > 0) status.annotations = annotations;
  else delete status.annotations;
  // §5.1: present while the permission check passes.
  if (controllerRuns(findings) && findings.writeVerbs !== undefined) status.writeVerbs = findings.writeVerbs;
  else delete status.writeVerbs;
  // §5.1: instance counts while the controller runs and selection is in play for its CRD.
  if (inputs.countsDue && inputs.counts !== undefined) status.instances = inputs.counts;
  else if (!inputs.countsDue) delete status.instances;
  return { status, specPathsWarning: values.SpecPathsInSchema };
}
