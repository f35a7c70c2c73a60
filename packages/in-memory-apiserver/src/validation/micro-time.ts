/**
 * metav1.MicroTime fields (Lease acquire and renew times, Event times): kube-apiserver decodes them with
 * Go's time.Parse and the layout RFC3339Micro, so exactly six fractional digits are required, and
 * stores them in UTC. A value it cannot parse fails the decoding of the whole body (400).
 */
import { isJsonObject, type JsonMap } from '@scoby/structural-schema';
import type { ResourceType } from '../resource-type.ts';
import { keyOf } from '../resource-type.ts';

const LAYOUT = '2006-01-02T15:04:05.000000Z07:00';
const MICRO_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})(Z|[+-]\d{2}:\d{2})$/;
const UP_TO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/** The MicroTime fields of each resource, as paths of object keys. */
const MICRO_TIME_FIELDS: ReadonlyMap<string, readonly (readonly string[])[]> = new Map([
  [
    'leases.coordination.k8s.io',
    [
      ['spec', 'acquireTime'],
      ['spec', 'renewTime'],
    ],
  ],
  ['events', [['eventTime'], ['series', 'lastObservedTime']]],
  ['events.events.k8s.io', [['eventTime'], ['series', 'lastObservedTime']]],
]);

/** Go's parse error for the common mistakes (no or a short fraction); others name the layout's start. */
function parseError(value: string): string {
  const seconds = UP_TO_SECONDS.exec(value);
  const [rest, element] = seconds ? [value.slice(seconds[0].length), '.000000'] : [value, '2006'];
  return `parsing time ${JSON.stringify(value)} as ${JSON.stringify(LAYOUT)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element)}`;
}

/** The value in UTC with six digits, or the parse error. */
function normalise(value: string): { ok: true; value: string } | { ok: false; message: string } {
  const match = MICRO_TIME.exec(value);
  if (!match) return { ok: false, message: parseError(value) };
  const [, seconds = '', micros = '', zone = ''] = match;
  const utc = new Date(`${seconds}${zone}`).toISOString().slice(0, 19);
  return { ok: true, value: `${utc}.${micros}Z` };
}

/** The object with its MicroTime fields in stored form, or the message of the decoding error. */
export function decodeMicroTimes(
  type: ResourceType,
  object: JsonMap,
): { ok: true; value: JsonMap } | { ok: false; message: string } {
  let result = object;
  for (const path of MICRO_TIME_FIELDS.get(keyOf(type)) ?? []) {
    const parents = path.slice(0, -1);
    const leaf = path[path.length - 1] ?? '';
    let parent: unknown = result;
    for (const key of parents) parent = isJsonObject(parent) ? parent[key] : undefined;
    const value = isJsonObject(parent) ? parent[leaf] : undefined;
    if (value === undefined || value === null) continue;
    const decoded =
      typeof value === 'string'
        ? normalise(value)
        : { ok: false as const, message: parseError(String(value)) };
    if (!decoded.ok) return decoded;
    result = setPath(result, path, decoded.value);
  }
  return { ok: true, value: result };
}

function setPath(object: JsonMap, path: readonly string[], value: unknown): JsonMap {
  const [head = '', ...rest] = path;
  const child = object[head];
  return {
    ...object,
    [head]: rest.length === 0 ? value : setPath(isJsonObject(child) ? child : {}, rest, value),
  };
}
