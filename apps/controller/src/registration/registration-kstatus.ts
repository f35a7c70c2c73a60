/**
 * A registration's kstatus verdict (docs/spec/registration.md §5.6): Stalled when Scoby does not try
 * again until the registration or the controller's flags change; Reconciling when it is not Ready
 * for any other reason (a retried failure, a CRD to wait for, a controller starting).
 */
import { RegistrationReason } from '@scoby/registration';
import { RECONCILING, STALLED, verdictFrom, type KstatusVerdict } from '../status/kstatus.ts';
import { MISSING_PERMISSIONS_REASON } from './access/missing-access.ts';
import type { RegistrationConditionValues } from './conditions.ts';

/** ControllerReady=False reasons the registration reconcile retries by itself (§4, §7). */
export const RETRIED_CONTROLLER_REASONS: ReadonlySet<string> = new Set([
  RegistrationReason.HookFailed,
  RegistrationReason.ControllerFailed,
  MISSING_PERMISSIONS_REASON,
]);

export const CONTROLLER_STARTING = 'ControllerStarting';

export function registrationKstatus(values: RegistrationConditionValues): KstatusVerdict {
  const { CRDExists, ControllerReady, Ready } = values;
  if (ControllerReady.status === 'False') {
    return verdictFrom(
      RETRIED_CONTROLLER_REASONS.has(ControllerReady.reason) ? RECONCILING : STALLED,
      ControllerReady,
    );
  }
  if (CRDExists.status === 'False') return verdictFrom(RECONCILING, CRDExists);
  if (Ready.status === 'True') return undefined;
  return { type: RECONCILING, reason: CONTROLLER_STARTING, message: '' };
}
