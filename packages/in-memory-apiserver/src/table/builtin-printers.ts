/**
 * The cells of kube-apiserver's printers (pkg/printers/internalversion) for the served built-ins, in
 * the order of their columns (data/kube-openapi.json `tableColumns`, captured from the real server).
 * The server prints wide: every column, kubectl hides those of priority 1 unless `-o wide`.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { formatLabelSelector, type LabelSelector } from '../selectors/index.ts';
import { ageOf } from './human-duration.ts';
import { coreEventOf } from '../events/event-shapes.ts';

export type Cell = string | number | boolean | null;
type Printer = (object: KubeObject, now: Date) => Cell[];

type Json = Record<string, unknown>;

function field(object: unknown, ...path: string[]): unknown {
  let node = object;
  for (const step of path) {
    node = typeof node === 'object' && node !== null ? (node as Json)[step] : undefined;
  }
  return node;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function count(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

function size(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return typeof value === 'object' && value !== null ? Object.keys(value).length : 0;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function nameOf(object: KubeObject): string {
  return object.metadata.name ?? '';
}

function age(object: KubeObject, now: Date): string {
  return ageOf(object.metadata.creationTimestamp, now);
}

/** The default printer's `Created At`: creation time in RFC 3339, UTC. */
function createdAt(object: KubeObject): string {
  const created = Date.parse(object.metadata.creationTimestamp ?? '');
  return Number.isNaN(created)
    ? '0001-01-01T00:00:00Z'
    : new Date(created).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function containerCells(object: KubeObject): [string, string] {
  const containers = list(field(object, 'spec', 'template', 'spec', 'containers'));
  return [
    containers.map((container) => text(container.name)).join(','),
    containers.map((container) => text(container.image)).join(','),
  ];
}

function replicasReady(object: KubeObject): string {
  return `${count(field(object, 'status', 'readyReplicas'))}/${count(field(object, 'spec', 'replicas'))}`;
}

function serviceExternalIp(service: KubeObject): string {
  const externalIps = list(field(service, 'spec', 'externalIPs')) as unknown as string[];
  switch (field(service, 'spec', 'type')) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIps.length > 0 ? externalIps.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = list(field(service, 'status', 'loadBalancer', 'ingress'));
      const balancers = [
        ...new Set(ingress.map((entry) => text(entry.ip) || text(entry.hostname)).filter((ip) => ip !== '')),
      ].sort();
      const all = [...balancers, ...externalIps];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return text(field(service, 'spec', 'externalName'));
    default:
      return '<unknown>';
  }
}

function servicePorts(service: KubeObject): string {
  const ports = list(field(service, 'spec', 'ports')).map((port) =>
    count(port.nodePort) > 0
      ? `${count(port.port)}:${count(port.nodePort)}/${text(port.protocol)}`
      : `${count(port.port)}/${text(port.protocol)}`,
  );
  return ports.length > 0 ? ports.join(',') : '<none>';
}

/** labels.FormatLabels: `k=v` by key, `<none>` when empty. */
function formatLabels(labels: unknown): string {
  const entries = Object.entries((labels ?? {}) as Record<string, string>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return entries.length > 0 ? entries.map(([key, value]) => `${key}=${value}`).join(',') : '<none>';
}

/** rbac.SubjectsStrings: users, groups and service accounts of a binding. */
function subjects(binding: KubeObject): [string, string, string] {
  const all = list(field(binding, 'subjects'));
  const of = (kind: string, render: (subject: Json) => string) =>
    all
      .filter((subject) => subject.kind === kind)
      .map(render)
      .join(', ');
  return [
    of('User', (subject) => text(subject.name)),
    of('Group', (subject) => text(subject.name)),
    of('ServiceAccount', (subject) => `${text(subject.namespace)}/${text(subject.name)}`),
  ];
}

function binding(object: KubeObject, now: Date): Cell[] {
  const roleRef = `${text(field(object, 'roleRef', 'kind'))}/${text(field(object, 'roleRef', 'name'))}`;
  return [nameOf(object), roleRef, age(object, now), ...subjects(object)];
}

/** printEvent, wide; events.k8s.io Events are printed as the core Events they convert to. */
function event(object: KubeObject, now: Date): Cell[] {
  const core = coreEventOf(object);
  const first =
    text(core.firstTimestamp) !== '' ? ageOf(core.firstTimestamp, now) : ageOf(core.eventTime, now);
  let last = text(core.lastTimestamp) !== '' ? ageOf(core.lastTimestamp, now) : first;
  let times = count(core.count);
  const series = core.series as Json | undefined;
  if (series !== undefined && series !== null) {
    last = ageOf(series.lastObservedTime, now);
    times = count(series.count);
  } else if (times === 0) {
    times = 1;
  }
  const involved = (core.involvedObject ?? {}) as Json;
  const kind = text(involved.kind).toLowerCase();
  const target = text(involved.name) !== '' ? `${kind}/${text(involved.name)}` : kind;
  const source = (core.source ?? {}) as Json;
  const component = text(source.component) || text(core.reportingComponent);
  const instance = text(source.host) || text(core.reportingInstance);
  return [
    last,
    text(core.type),
    text(core.reason),
    target,
    text(involved.fieldPath),
    instance === '' ? component : `${component}, ${instance}`,
    text(core.message).trim(),
    first,
    times,
    nameOf(object),
  ];
}

const PRINTERS: Record<string, Printer> = {
  '/namespaces': (object, now) => [nameOf(object), text(field(object, 'status', 'phase')), age(object, now)],
  '/configmaps': (object, now) => [
    nameOf(object),
    size(field(object, 'data')) + size(field(object, 'binaryData')),
    age(object, now),
  ],
  '/secrets': (object, now) => [
    nameOf(object),
    text(field(object, 'type')),
    size(field(object, 'data')),
    age(object, now),
  ],
  '/services': (object, now) => [
    nameOf(object),
    text(field(object, 'spec', 'type')),
    text((field(object, 'spec', 'clusterIPs') as string[] | undefined)?.[0]) || '<none>',
    serviceExternalIp(object),
    servicePorts(object),
    age(object, now),
    formatLabels(field(object, 'spec', 'selector')),
  ],
  '/serviceaccounts': (object, now) => [nameOf(object), size(field(object, 'secrets')), age(object, now)],
  '/events': event,
  'events.k8s.io/events': event,
  'apps/deployments': (object, now) => [
    nameOf(object),
    replicasReady(object),
    count(field(object, 'status', 'updatedReplicas')),
    count(field(object, 'status', 'availableReplicas')),
    age(object, now),
    ...containerCells(object),
    formatLabelSelector(field(object, 'spec', 'selector') as LabelSelector | undefined),
  ],
  'apps/statefulsets': (object, now) => [
    nameOf(object),
    replicasReady(object),
    age(object, now),
    ...containerCells(object),
  ],
  'coordination.k8s.io/leases': (object, now) => [
    nameOf(object),
    text(field(object, 'spec', 'holderIdentity')),
    age(object, now),
  ],
  'rbac.authorization.k8s.io/clusterrolebindings': binding,
  'rbac.authorization.k8s.io/rolebindings': binding,
};

/** The cells of a built-in object; kinds without a printer get the default `Name`, `Created At`. */
export function builtinCells(group: string, plural: string, object: KubeObject, now: Date): Cell[] {
  const printer = PRINTERS[`${group}/${plural}`];
  return printer === undefined ? [nameOf(object), createdAt(object)] : printer(object, now);
}
