/** Rows 12–15 of docs/spec/registration.md §4: spec.hook (§3.4). */
import { parseIsoDurationMs } from '../iso8601-duration.ts';
import type { Destination, HookSpec } from '../types.ts';
import type { Problem } from './problem.ts';
import { parseUriReference } from '@scoby/address';
import { CAPABILITY_SPELLINGS, HOOK_PHASES } from '../hook-capabilities.generated.ts';
import { HOOK, isSet, problem, quote, quoteList, ValidationReason } from './problem.ts';

export const SUPPORTED_HOOK_VERSIONS: readonly (string | number)[] = ['v1', '1', 1];
/** Accepted capability spellings and the phase each enables: hooks-v1's phase table, generated. */
export { CAPABILITY_SPELLINGS };
/** spec.hook.failurePolicy values (hooks-v1.md §6.6); the first is the default. */
export const FAILURE_POLICIES = ['Fail', 'Ignore'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];
const REF_FIELDS = ['apiVersion', 'kind', 'name', 'namespace'] as const;
const URI_SCHEMES = ['http', 'https'];

/** Row 12. */
export function hookVersionProblems(hook: HookSpec): Problem[] {
  if (SUPPORTED_HOOK_VERSIONS.includes(hook.version)) return [];
  return [
    problem(
      `${HOOK}.version`,
      ValidationReason.InvalidHookVersion,
      `unsupported hooks API version ${quote(String(hook.version))} (supported: "v1")`,
    ),
  ];
}

/** Row 13: exactly one of address and module (hooks-v1.md §10), then the address. */
export function hookAddressProblems(hook: HookSpec): Problem[] {
  const reason = ValidationReason.InvalidHookAddress;
  if (isSet(hook.address) === isSet(hook.module)) {
    return [problem(HOOK, reason, 'exactly one of address, module must be set')];
  }
  return hook.address === undefined ? [] : destinationProblems(hook.address);
}

function destinationProblems(address: Destination): Problem[] {
  const path = `${HOOK}.address`;
  const reason = ValidationReason.InvalidHookAddress;
  const { ref, uri } = address;
  if (!isSet(ref) && !isSet(uri)) return [problem(path, reason, 'one of ref or uri must be set')];
  const problems = REF_FIELDS.filter((field) => ref && !ref[field]).map((field) =>
    problem(`${path}.ref.${field}`, reason, 'required, a CRDRegistration is cluster scoped'),
  );
  const uriProblem = uri === undefined ? undefined : hookUriProblem(uri, isSet(ref));
  if (uriProblem !== undefined) problems.push(problem(`${path}.uri`, reason, uriProblem));
  return problems;
}

function hookUriProblem(uri: string, withRef: boolean): string | undefined {
  const parsed = parseUriReference(uri);
  if (!parsed.ok) return `invalid URI ${quote(uri)}: ${parsed.reason}`;
  const { scheme } = parsed.uri;
  const host = parsed.uri.authority?.host;
  if (scheme !== undefined && !URI_SCHEMES.includes(scheme.toLowerCase())) {
    return `unsupported scheme ${quote(scheme)} (supported: ${URI_SCHEMES.join(', ')})`;
  }
  if (withRef && host) return `URI should not contain a host while also informing a Reference: ${quote(uri)}`;
  if (!withRef && (scheme === undefined || !host)) {
    return `${quote(uri)} must be an absolute http or https URI when no ref is set`;
  }
  return undefined;
}

/** Row 14. An empty timeout means "absent". */
export function hookTimeoutProblems(hook: HookSpec): Problem[] {
  if (hook.timeout === undefined || hook.timeout === '') return [];
  const path = `${HOOK}.timeout`;
  const milliseconds = parseIsoDurationMs(hook.timeout);
  if (milliseconds === undefined) {
    return [
      problem(
        path,
        ValidationReason.InvalidHookTimeout,
        `${quote(hook.timeout)} is not an ISO 8601 duration (for example "PT10S")`,
      ),
    ];
  }
  return milliseconds > 0
    ? []
    : [problem(path, ValidationReason.InvalidHookTimeout, 'must be greater than zero')];
}

/** Row 15. */
export function hookCapabilityProblems(hook: HookSpec): Problem[] {
  return (hook.capabilities ?? []).flatMap((capability, i) =>
    Object.hasOwn(CAPABILITY_SPELLINGS, capability)
      ? []
      : [
          problem(
            `${HOOK}.capabilities[${i}]`,
            ValidationReason.InvalidHookCapability,
            `unknown capability ${quote(capability)} (supported: ${quoteList(HOOK_PHASES)})`,
          ),
        ],
  );
}

/** Row 16. */
export function hookFailurePolicyProblems(hook: HookSpec): Problem[] {
  const policy = hook.failurePolicy;
  if (policy === undefined || (FAILURE_POLICIES as readonly string[]).includes(policy)) return [];
  return [
    problem(
      `${HOOK}.failurePolicy`,
      ValidationReason.InvalidHookFailurePolicy,
      `unknown failure policy ${quote(policy)} (supported: ${quoteList([...FAILURE_POLICIES])})`,
    ),
  ];
}
