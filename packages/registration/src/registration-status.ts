/** Registration status (docs/spec/registration.md §5): condition types, reasons, messages and `Ready`. */
import type { Condition } from '@scoby/kube-objects';

export const RegistrationConditionType = {
  CRDExists: 'CRDExists',
  ControllerReady: 'ControllerReady',
  Ready: 'Ready',
} as const;

/** Reasons of §5.2 and of the checks that need the CRD (§4); validation reasons are in ValidationReason. */
export const RegistrationReason = {
  Unknown: 'UNKNOWN',
  CRDExist: 'CRDEXIST',
  CRDError: 'CRDERROR',
  ControllerStarted: 'CONTROLLERSTARTED',
  ConditionsOK: 'CONDITIONSOK',
  UnsupportedCRDScope: 'UnsupportedCRDScope',
  CRDAlreadyRegistered: 'CRDAlreadyRegistered',
  HookFailed: 'HOOKFAILED',
  ControllerFailed: 'CONTROLLERFAILED',
} as const;

export const crdClusterScopedMessage = (crd: string): string =>
  `CRD "${crd}" is cluster scoped; only namespaced CRDs can be registered`;
export const crdAlreadyRegisteredMessage = (crd: string, activeRegistration: string): string =>
  `CRD "${crd}" is already registered by CRDRegistration "${activeRegistration}"`;
export const crdServesNoVersionMessage = (crd: string): string => `CRD "${crd}" serves no version`;
export const waitingForCrdMessage = (crd: string): string => `waiting for CRD "${crd}"`;

type ConditionState = Pick<Condition, 'status' | 'reason' | 'message'>;

/** §5.3: `Ready` over CRDExists then ControllerReady; the first False wins over any Unknown. */
export function computeRegistrationReady(
  crdExists: ConditionState,
  controllerReady: ConditionState,
): Omit<Condition, 'lastTransitionTime'> {
  const ready = RegistrationConditionType.Ready;
  const firstFalse = [crdExists, controllerReady].find((condition) => condition.status === 'False');
  if (firstFalse)
    return { type: ready, status: 'False', reason: firstFalse.reason, message: firstFalse.message };
  if (crdExists.status === 'Unknown' || controllerReady.status === 'Unknown') {
    return { type: ready, status: 'Unknown', reason: RegistrationReason.Unknown, message: '' };
  }
  return { type: ready, status: 'True', reason: RegistrationReason.ConditionsOK, message: '' };
}
