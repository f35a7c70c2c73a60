/**
 * Registration conditions (docs/spec/registration.md §5.2–§5.3) as a function of what the reconcile found.
 */
import {
  computeRegistrationReady,
  crdServesNoVersionMessage,
  RegistrationReason,
  waitingForCrdMessage,
} from '@scoby/registration';
import type { FieldProblem } from '../crd/spec-paths.ts';
import type { WriteVerbs } from '../instance/instance-config.ts';
import type { ConditionValue } from '../status/conditions.ts';
import type { ControllerOutcome } from '../instance/controller-host.ts';

export type CrdLookup = { kind: 'found'; servesVersion: boolean } | { kind: 'missing'; message: string };

export interface RegistrationFindings {
  crdName: string;
  validation: { ok: true } | { ok: false; reason: string; message: string };
  crd: CrdLookup;
  /** Absent when the checks did not run (invalid spec or CRD not usable). */
  controller?: ControllerOutcome;
  /** Spec paths the CRD's schema lacks (crd/spec-paths.ts); absent or empty when there are none. */
  specPaths?: readonly FieldProblem[];
  /** The verbs instance writes use (§7), known once the permission check passed. */
  writeVerbs?: WriteVerbs;
}

export interface RegistrationConditionValues {
  CRDExists: ConditionValue;
  ControllerReady: ConditionValue;
  Ready: ConditionValue;
  /** A warning, present only while a spec path is not in the CRD's schema; Ready does not read it. */
  SpecPathsInSchema?: ConditionValue;
}

/** The warning condition's type and reason (docs/spec/registration.md §5.5). */
export const SPEC_PATHS_CONDITION = 'SpecPathsInSchema';
export const SPEC_PATH_NOT_IN_SCHEMA = 'SpecPathNotInSchema';

/** `<field>: "<path>" is not in the schema of CRD "<name>" version <v>`, joined by `; `. */
export function specPathsMessage(problems: readonly FieldProblem[]): string {
  return problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
}

const UNKNOWN = { status: 'Unknown', reason: RegistrationReason.Unknown, message: '' } as const;

function crdExists(findings: RegistrationFindings): ConditionValue {
  if (findings.crd.kind === 'missing') {
    return { status: 'False', reason: RegistrationReason.CRDError, message: findings.crd.message };
  }
  if (!findings.crd.servesVersion) {
    return {
      status: 'False',
      reason: RegistrationReason.CRDError,
      message: crdServesNoVersionMessage(findings.crdName),
    };
  }
  return { status: 'True', reason: RegistrationReason.CRDExist, message: '' };
}

function controllerReady(findings: RegistrationFindings): ConditionValue {
  if (!findings.validation.ok) {
    return { status: 'False', reason: findings.validation.reason, message: findings.validation.message };
  }
  if (findings.crd.kind === 'missing') {
    return { ...UNKNOWN, message: waitingForCrdMessage(findings.crdName) };
  }
  const outcome = findings.controller;
  if (!outcome || outcome.kind === 'starting') return { ...UNKNOWN };
  if (outcome.kind === 'failed') return { status: 'False', reason: outcome.reason, message: outcome.message };
  return { status: 'True', reason: RegistrationReason.ControllerStarted, message: '' };
}

/**
 * A controller starting again for a generation it already reported started (a restart, a failover, a
 * takeover from Go Scoby) is not news: the stored status stands until the start ends, instead of
 * ControllerReady and Ready passing through Unknown with a new lastTransitionTime each time.
 */
export function restartOfStartedGeneration(
  stored: { observedGeneration?: unknown; conditions?: unknown } | undefined,
  generation: number | undefined,
  findings: RegistrationFindings,
): boolean {
  if (findings.controller?.kind !== 'starting' || stored?.observedGeneration !== generation) return false;
  const conditions = Array.isArray(stored?.conditions)
    ? (stored.conditions as { type?: unknown; status?: unknown }[])
    : [];
  return conditions.some((condition) => condition.type === 'ControllerReady' && condition.status === 'True');
}

export function registrationConditions(findings: RegistrationFindings): RegistrationConditionValues {
  const CRDExists = crdExists(findings);
  const ControllerReady = controllerReady(findings);
  const { status, reason, message } = computeRegistrationReady(CRDExists, ControllerReady);
  const specPaths = findings.specPaths ?? [];
  return {
    CRDExists,
    ControllerReady,
    Ready: { status, reason, message },
    ...(specPaths.length > 0
      ? {
          SpecPathsInSchema: {
            status: 'False',
            reason: SPEC_PATH_NOT_IN_SCHEMA,
            message: specPathsMessage(specPaths),
          },
        }
      : {}),
  };
}
