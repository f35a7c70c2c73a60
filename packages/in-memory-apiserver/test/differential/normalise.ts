/**
 * Replies made comparable across two servers: what each server sets itself (uids, resourceVersions,
 * timestamps, generated name suffixes) becomes a placeholder, what a listed difference says differs
 * (managedFields, workload status written by controllers) is dropped, lists are in name order without
 * the objects a real control plane's controllers add, and 422 causes are a set (in one order, each once).
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** What one server answered so far, to recognise its own values in later replies. */
export interface Book {
  /** resourceVersions this server gave out. */
  versions: Set<string>;
  /** Names this server generated, with their generateName prefix. */
  generated: Map<string, string>;
}

export function newBook(): Book {
  return { versions: new Set(), generated: new Map() };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects added by a real control plane's controllers in every namespace. */
export const CONTROLLER_MADE = new Set(['kube-root-ca.crt']);

function normaliseMetadata(metadata: Json, book: Book): Json {
  const result: Json = { ...metadata };
  for (const key of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'])
    if (result[key] !== undefined) result[key] = `<${key}>`;
  delete result.managedFields;
  if (typeof result.name === 'string' && book.generated.has(result.name))
    result.name = `${book.generated.get(result.name)}<generated>`;
  if (isObject(result.annotations)) {
    const { 'deployment.kubernetes.io/revision': _revision, ...annotations } = result.annotations;
    if (Object.keys(annotations).length > 0) result.annotations = annotations;
    else delete result.annotations;
  }
  return result;
}

function normaliseMessage(message: string, book: Book): string {
  let text = message.replace(UUID, '<uid>');
  for (const [name, prefix] of book.generated) text = text.split(`"${name}"`).join(`"${prefix}<generated>"`);
  // A resourceVersion is quoted in parentheses ("the ResourceVersion in the precondition (5) does not
  // match the ResourceVersion in record (7)"); the record's may be a controller's write the harness never saw.
  if (/resource ?version/i.test(text)) text = text.replace(/\(\d+\)/g, '(<resourceVersion>)');
  // kube-apiserver lists a 422's causes in its validation's order; the harness compares them as a set.
  return text.replace(
    /is invalid: \[(.*)\]$/s,
    (_all, causes: string) => `is invalid: [${causes.split(', ').sort().join(', ')}]`,
  );
}

function causeKey(cause: unknown): string {
  return JSON.stringify(cause);
}

const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** A Service's cluster IPs and node ports, which each server allocates itself. */
function normaliseAllocated(key: string, value: unknown): unknown {
  if (key === 'clusterIP' && typeof value === 'string' && IPV4.test(value)) return '<clusterIP>';
  if (key === 'clusterIPs' && Array.isArray(value))
    return value.map((ip) => (typeof ip === 'string' && IPV4.test(ip) ? '<clusterIP>' : ip));
  if (key === 'nodePort' && typeof value === 'number' && value !== 0) return '<nodePort>';
  return undefined;
}

function normaliseValue(value: unknown, book: Book): unknown {
  if (Array.isArray(value)) return value.map((item) => normaliseValue(item, book));
  if (!isObject(value)) return value;
  const result: Json = {};
  for (const [key, child] of Object.entries(value))
    result[key] = normaliseAllocated(key, child) ?? normaliseValue(child, book);
  if (isObject(value.metadata)) result.metadata = normaliseMetadata(value.metadata as Json, book);
  if (value.kind === 'Deployment' || value.kind === 'Scale') delete result.status;
  if (value.kind === 'DeploymentList' && Array.isArray(result.items))
    result.items = result.items.map((item) => {
      const { status: _status, ...rest } = item as Json;
      return rest;
    });
  if (value.kind === 'Status') {
    if (typeof value.message === 'string') result.message = normaliseMessage(value.message, book);
    if (isObject(result.details)) {
      const details: Json = { ...result.details };
      if (details.uid !== undefined) details.uid = '<uid>';
      if (typeof details.name === 'string' && book.generated.has(details.name))
        details.name = `${book.generated.get(details.name)}<generated>`;
      if (Array.isArray(details.causes))
        details.causes = [...details.causes]
          .map((cause) =>
            isObject(cause) && typeof cause.message === 'string'
              ? { ...cause, message: normaliseMessage(cause.message, book) }
              : cause,
          )
          .sort((a, b) => causeKey(a).localeCompare(causeKey(b)))
          // kube-apiserver validates an update's metadata more than once and repeats equal causes.
          .filter((cause, index, causes) => index === 0 || causeKey(cause) !== causeKey(causes[index - 1]));
      result.details = details;
    }
  }
  if (Array.isArray(value.items)) {
    result.items = (result.items as unknown[])
      .filter(
        (item) =>
          !(isObject(item) && isObject(item.metadata) && CONTROLLER_MADE.has(String(item.metadata.name))),
      )
      .sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  }
  return result;
}

function nameOf(item: unknown): string {
  return isObject(item) && isObject(item.metadata) ? String(item.metadata.name) : '';
}

/** A reply body in the form compared. */
export function normaliseReply(body: unknown, book: Book): unknown {
  return normaliseValue(body, book);
}

/** The first path where two normalised values differ, or undefined when they are equal. */
export function firstDifference(left: unknown, right: unknown, path = ''): string | undefined {
  if (Array.isArray(left) && Array.isArray(right)) {
    if (left.length !== right.length) return `${path || '.'} (length ${left.length} ≠ ${right.length})`;
    for (let i = 0; i < left.length; i++) {
      const found = firstDifference(left[i], right[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isObject(left) && isObject(right)) {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of [...keys].sort()) {
      const found = firstDifference(left[key], right[key], `${path}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(left, right) ? undefined : path || '.';
}
