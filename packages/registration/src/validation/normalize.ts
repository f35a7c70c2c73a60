/**
 * Defaulting and alias mapping of a registration that passed validation (docs/spec/registration.md §3, §3.5).
 * Assumes validity: unknown spellings and malformed values were rejected before.
 */
import { parseIsoDurationMs } from '../iso8601-duration.ts';
import type {
  AddToEnv,
  CRDRegistrationSpec,
  Destination,
  FormFactorCatalog,
  FromSpecToEnv,
  HookCapability,
  HookSpec,
  NormalizedAddToEnv,
  NormalizedFromSpecToEnv,
  NormalizedHook,
  NormalizedRegistrationSpec,
} from '../types.ts';
import type { LabelSelector } from '../label-selector.ts';
import { DEFAULT_FORM_FACTOR } from './form-factor-checks.ts';
import { CAPABILITY_SPELLINGS } from './hook-checks.ts';

export const DEFAULT_HOOK_TIMEOUT_MS = 15_000;

export function normalizeRegistration(
  written: CRDRegistrationSpec,
  formFactorName: string,
  catalog: FormFactorCatalog,
): NormalizedRegistrationSpec {
  // A private copy, so that nothing in the result aliases the caller's object.
  const spec = structuredClone(written);
  const { parameterConfiguration: parameters, statusConfiguration: status, formFactor } = spec.workload;
  const block = formFactor?.[formFactorName];
  const normalized: NormalizedRegistrationSpec = {
    crd: spec.crd,
    image: spec.workload.fromImage.repo,
    formFactor: {
      name: formFactorName,
      config:
        block === undefined || block === null
          ? catalog.defaultBlock(DEFAULT_FORM_FACTOR, { replicas: 1 })
          : catalog.defaultBlock(formFactorName, block),
    },
    parameterConfiguration: {
      global: { defaultPrefix: parameters?.global?.defaultPrefix ?? '' },
      fromSpec: {
        skip: parameters?.fromSpec?.skip ?? [],
        toEnv: (parameters?.fromSpec?.toEnv ?? []).map(foldDefaultValue),
        toVolume: parameters?.fromSpec?.toVolume ?? [],
      },
      add: {
        toEnv: (parameters?.add?.toEnv ?? []).map(foldFieldRef),
        toVolume: parameters?.add?.toVolume ?? [],
      },
    },
    statusConfiguration: {
      add: status?.add ?? [],
      conditionsFromHook: (status?.conditionsFromHook ?? []).map(({ type }) => type),
    },
  };
  if (spec.hook) normalized.hook = normalizeHook(spec.hook);
  if (spec.selector) normalized.selector = spec.selector as LabelSelector;
  if (spec.namespaceSelector) normalized.namespaceSelector = spec.namespaceSelector as LabelSelector;
  const resyncPeriodMs = spec.resyncPeriod ? parseIsoDurationMs(spec.resyncPeriod) : undefined;
  if (resyncPeriodMs !== undefined) normalized.resyncPeriodMs = resyncPeriodMs;
  return normalized;
}

function foldDefaultValue({ defaultValue, ...entry }: FromSpecToEnv): NormalizedFromSpecToEnv {
  return defaultValue === undefined ? entry : { ...entry, default: { value: defaultValue } };
}

function foldFieldRef(entry: AddToEnv): NormalizedAddToEnv {
  if (entry.valueFrom?.fieldRef === undefined) return entry as NormalizedAddToEnv;
  const { fieldRef, ...valueFrom } = entry.valueFrom;
  return { ...entry, valueFrom: { ...valueFrom, field: fieldRef } };
}

function normalizeHook(hook: HookSpec): NormalizedHook {
  const capabilities: HookCapability[] = [];
  for (const written of hook.capabilities ?? []) {
    const capability = CAPABILITY_SPELLINGS[written as keyof typeof CAPABILITY_SPELLINGS];
    if (!capabilities.includes(capability)) capabilities.push(capability);
  }
  const timeoutMs = hook.timeout ? parseIsoDurationMs(hook.timeout) : undefined;
  return {
    version: 'v1',
    ...(hook.module === undefined || hook.module === null
      ? { address: destination(hook.address ?? {}) }
      : { module: hook.module }),
    timeoutMs: timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    capabilities,
    failurePolicy: hook.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
  };
}

/** Only `ref` and `uri` (docs/spec/address.md §1: other keys are ignored). */
function destination({ ref, uri }: Destination): Destination {
  return { ...(ref === undefined ? {} : { ref }), ...(uri === undefined ? {} : { uri }) };
}
