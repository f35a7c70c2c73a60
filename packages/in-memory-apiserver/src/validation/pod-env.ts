/**
 * A container's env as kube-apiserver v1.34 validates it (pkg/apis/core/validation ValidateEnv):
 * names by the relaxed rule (RelaxedEnvironmentVariableValidation is GA and locked on in 1.34), and
 * each valueFrom with exactly one source, each source checked.
 */
import { isJsonObject, isQualifiedName, type Cause, type JsonMap } from '@scoby/structural-schema';
import { dnsSubdomainErrors } from '../names.ts';
import { invalidValue, notSupported, requiredValue } from './field-errors.ts';

const RELAXED_NAME_MESSAGE =
  "a valid environment variable name must consist only of printable ASCII characters other than '='";
const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_MAP_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** Field paths a container's env may read (validEnvDownwardAPIFieldPathExpressions). */
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
/** Field labels the downward API converts (pods.ConvertDownwardAPIFieldLabel). */
const CONVERTIBLE = new Set([
  ...ENV_FIELD_PATHS,
  'metadata.annotations',
  'metadata.labels',
  'spec.restartPolicy',
  'spec.schedulerName',
  'status.phase',
]);
const SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'];

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** validation.IsRelaxedEnvVarName: printable ASCII (space to '~') other than '='. */
function isRelaxedEnvVarName(name: string): boolean {
  return Array.from(name).every((character) => {
    const code = character.codePointAt(0) ?? 0;
    return code >= 0x20 && code <= 0x7e && character !== '=';
  });
}

/** validation.IsConfigMapKey. */
export function configMapKeyErrors(key: string): string[] {
  const errors: string[] = [];
  if (key.length > 253) errors.push('must be no more than 253 characters');
  if (!CONFIG_MAP_KEY.test(key)) errors.push(CONFIG_MAP_KEY_MESSAGE);
  if (key === '.') errors.push("must not be '.'");
  else if (key === '..') errors.push("must not be '..'");
  else if (key.startsWith('..')) errors.push("must not start with '..'");
  return errors;
}

function keySelectorCauses(selector: JsonMap, field: string): Cause[] {
  const name = text(selector.name);
  const key = text(selector.key);
  return [
    ...dnsSubdomainErrors(name).map((message) => invalidValue(`${field}.name`, name, message)),
    ...(key === ''
      ? [requiredValue(`${field}.key`, '')]
      : configMapKeyErrors(key).map((message) => invalidValue(`${field}.key`, key, message))),
  ];
}

/** `path['key']` split as fieldpath.SplitMaybeSubscriptedPath splits it. */
function subscripted(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const inner = fieldPath.slice(0, -2);
  const at = inner.indexOf("['");
  if (at <= 0) return undefined;
  return { path: inner.slice(0, at), subscript: inner.slice(at + 2) };
}

/** The field paths a downwardAPI volume file may read (validVolumeDownwardAPIFieldPathExpressions). */
export const VOLUME_FIELD_PATHS: readonly string[] = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];

/** validateObjectFieldSelector against the paths `supported` (env vars' by default). */
export function fieldRefCauses(
  selector: JsonMap,
  field: string,
  supported: readonly string[] = ENV_FIELD_PATHS,
): Cause[] {
  const apiVersion = text(selector.apiVersion);
  const fieldPath = text(selector.fieldPath);
  if (apiVersion === '') return [requiredValue(`${field}.apiVersion`, '')];
  if (fieldPath === '') return [requiredValue(`${field}.fieldPath`, '')];
  const split = subscripted(fieldPath);
  const converted =
    apiVersion !== 'v1'
      ? `unsupported pod version: ${apiVersion}`
      : split !== undefined
        ? split.path === 'metadata.annotations' || split.path === 'metadata.labels'
          ? undefined
          : `field label does not support subscript: ${fieldPath}`
        : CONVERTIBLE.has(fieldPath) || fieldPath === 'spec.host'
          ? undefined
          : `field label not supported: ${fieldPath}`;
  if (converted !== undefined)
    return [invalidValue(`${field}.fieldPath`, fieldPath, `error converting fieldPath: ${converted}`)];
  if (split !== undefined) {
    const key = split.path === 'metadata.annotations' ? split.subscript.toLowerCase() : split.subscript;
    return isQualifiedName(key).map((message) => invalidValue(field, key, message));
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  return supported.includes(internal)
    ? []
    : [notSupported(`${field}.fieldPath`, internal, [...supported].sort())];
}

function valueFromCauses(variable: JsonMap, field: string): Cause[] {
  const valueFrom = variable.valueFrom;
  if (!isJsonObject(valueFrom)) return [];
  const present = SOURCES.filter((source) => isJsonObject(valueFrom[source]));
  const causes: Cause[] = [];
  for (const source of present) {
    const selector = valueFrom[source] as JsonMap;
    const path = `${field}.${source}`;
    if (source === 'fieldRef') causes.push(...fieldRefCauses(selector, path));
    if (source === 'configMapKeyRef' || source === 'secretKeyRef')
      causes.push(...keySelectorCauses(selector, path));
  }
  if (present.length === 0)
    causes.push(
      invalidValue(
        field,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  else if (text(variable.value) !== '')
    causes.push(invalidValue(field, '', 'may not be specified when `value` is not empty'));
  else if (present.length > 1)
    causes.push(invalidValue(field, '', 'may not have more than one field specified at a time'));
  return causes;
}

/** Causes of `env` (path is the container's env field, e.g. `spec.template.spec.containers[0].env`). */
export function envCauses(env: unknown, path: string): Cause[] {
  if (!Array.isArray(env)) return [];
  return env.flatMap((variable: unknown, index) => {
    if (!isJsonObject(variable)) return [];
    const field = `${path}[${index}]`;
    const name = text(variable.name);
    const nameCauses =
      name === ''
        ? [requiredValue(`${field}.name`, '')]
        : isRelaxedEnvVarName(name)
          ? []
          : [invalidValue(`${field}.name`, name, RELAXED_NAME_MESSAGE)];
    return [...nameCauses, ...valueFromCauses(variable, `${field}.valueFrom`)];
  });
}
