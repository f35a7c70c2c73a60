/**
 * A container's probes as kube-apiserver v1.34 validates them (validateProbe, validateHandler): exactly
 * one handler (exec, httpGet, tcpSocket, grpc; a second is "may not specify more than 1 handler type"),
 * each handler's fields (a command, an HTTP path, port and scheme, a port number or name), the periods
 * and thresholds not negative, a probe's terminationGracePeriodSeconds above 0, and liveness and startup
 * probes succeeding after exactly one success. Probes are defaulted first (strategies/pod-template.ts).
 */
import { isJsonObject, type Cause, type JsonMap } from '@scoby/structural-schema';
import { forbidden, invalidValue, notSupported, requiredValue } from './field-errors.ts';
import { portNameErrors, portRangeCauses } from './ports.ts';

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const NON_NEGATIVE = [
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
] as const;

/** ValidatePortNumOrName: a number in range or an IANA service name. */
export function portNumOrNameCauses(port: unknown, field: string): Cause[] {
  if (typeof port === 'string')
    return portNameErrors(port).map((message) => invalidValue(field, port, message));
  return portRangeCauses(field, typeof port === 'number' ? port : 0);
}

function handlerFieldCauses(handler: (typeof HANDLERS)[number], action: JsonMap, field: string): Cause[] {
  switch (handler) {
    case 'exec':
      return Array.isArray(action.command) && action.command.length > 0
        ? []
        : [requiredValue(`${field}.command`, '')];
    case 'httpGet': {
      const causes: Cause[] = [];
      if (typeof action.path !== 'string' || action.path === '')
        causes.push(requiredValue(`${field}.path`, ''));
      causes.push(...portNumOrNameCauses(action.port, `${field}.port`));
      if (action.scheme !== 'HTTP' && action.scheme !== 'HTTPS')
        causes.push(notSupported(`${field}.scheme`, action.scheme ?? '', ['HTTP', 'HTTPS']));
      return causes;
    }
    case 'tcpSocket':
      return portNumOrNameCauses(action.port, `${field}.port`);
    case 'grpc':
      return portRangeCauses(`${field}.port`, typeof action.port === 'number' ? action.port : 0);
  }
}

function handlerCauses(probe: JsonMap, field: string): Cause[] {
  const present = HANDLERS.filter((handler) => isJsonObject(probe[handler]));
  if (present.length === 0) return [requiredValue(field, 'must specify a handler type')];
  const [first, ...others] = present;
  const handler = first as (typeof HANDLERS)[number];
  return [
    ...handlerFieldCauses(handler, probe[handler] as JsonMap, `${field}.${handler}`),
    ...others.map((other) => forbidden(`${field}.${other}`, 'may not specify more than 1 handler type')),
  ];
}

function probeCauses(probe: unknown, field: string, singleSuccess: boolean): Cause[] {
  if (!isJsonObject(probe)) return [];
  const causes = handlerCauses(probe, field);
  for (const key of NON_NEGATIVE) {
    const value = probe[key];
    if (typeof value === 'number' && value < 0)
      causes.push(invalidValue(`${field}.${key}`, value, 'must be greater than or equal to 0'));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0)
    causes.push(invalidValue(`${field}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  if (singleSuccess && typeof probe.successThreshold === 'number' && probe.successThreshold !== 1)
    causes.push(invalidValue(`${field}.successThreshold`, probe.successThreshold, 'must be 1'));
  return causes;
}

/** Causes of the liveness, readiness and startup probes of a container at `path`. */
export function containerProbeCauses(container: JsonMap, path: string): Cause[] {
  return [
    ...probeCauses(container.livenessProbe, `${path}.livenessProbe`, true),
    ...probeCauses(container.readinessProbe, `${path}.readinessProbe`, false),
    ...probeCauses(container.startupProbe, `${path}.startupProbe`, true),
  ];
}
