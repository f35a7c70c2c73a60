/**
 * Runs a batch of generated cases against one in-memory API server (over HTTP), one controller
 * process and one scripted HTTP hook, and compares each case's outcome on the cluster with what
 * `scoby render`'s function (renderOffline) gives for the same inputs:
 *
 * 1. the instance as the API server stored it at its creation, the live objects of its namespace as
 *    observed children, the hook's answers: render's children and status against the controller's
 *    first status write and the children it wrote; render's failure (and the status it records)
 *    against that write; render's warnings against the instance's Warning Events; the pre-reconcile
 *    request both sent;
 * 2. once the children report a status (the case's ObservedCase, written to their status as their
 *    own controllers would): the instance as stored then, the live children, against the
 *    controller's next status.
 *
 * The built-in simulations of Deployments and Knative Services are off: children report only what
 * the case says. normalise.ts lists what is normalised and why.
 */
import { createHookClient } from '@scoby/hooks-v1/client';
import { resolveDestination } from '@scoby/address';
import { compactJson, type KubeObject } from '@scoby/kube-objects';
import { ApiError, type ResourceRef } from '@scoby/controller-runtime';
import { builtInFormFactors } from '../../../src/process/built-in-form-factors.ts';
import { resolveHookTarget } from '../../../src/hook-modules/hook-target.ts';
import { objectLookups, objectReader } from '../../../src/cli/render/object-lookups.ts';
import { renderOffline, type OfflineRender } from '../../../src/cli/render/offline-render.ts';
import { formatTime } from '../../../src/status/conditions.ts';
import { crdFor, startTestCluster, type TestCluster } from '../cluster.ts';
import { startScriptedHook, type HookRequestRecord, type ScriptedHook } from '../hooks-server.ts';
import { conditionOf, conditionsOf, REGISTRATION_API } from '../scoby.ts';
import {
  caseCrd,
  caseInstance,
  caseNames,
  caseRegistration,
  caseSurroundings,
  hookReply,
  instanceName,
  KIND,
  observedStatus,
  PLURAL,
  SCOBY_NAMESPACE,
  type CaseNames,
} from './case-objects.ts';
import { childDifferences, normalisedHookRequest, normalisedStatus } from './normalise.ts';
import type { InstanceCase, PlanCase } from './plan-case.ts';

const CLUSTER_DOMAIN = 'cluster.local';
const WAIT_MS = 30_000;
const REGISTRATION_WAIT_MS = 120_000;
/** The User-Agent of render's own hook calls: the hook tells them from the controller's by it. */
const RENDER_AGENT = 'scoby-render-property';
/** Warning reasons of instance Events (docs/spec/children-and-status.md §10); render prints the others too. */
const INSTANCE_WARNINGS = new Set([
  'RenderFailed',
  'HookFailed',
  'HookFailedIgnored',
  'HookObjectChangesIgnored',
  'HookConditionRepeated',
  'ApplyFailed',
  'EnvNameCollision',
  'StatusWriteFailed',
]);

const CHILD_RESOURCES: { apiVersion: string; kind: string; ref: ResourceRef }[] = [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    ref: { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    ref: { group: '', version: 'v1', resource: 'services', namespaced: true },
  },
  {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    ref: { group: 'serving.knative.dev', version: 'v1', resource: 'services', namespaced: true },
  },
];

export interface CaseReport {
  /** The case's index in the run, and the instance of its registration. */
  index: number;
  instance: string;
  /** What the case came to, for the run's summary: a status reason, or how it ended. */
  outcome: string;
  differences: string[];
  /** Since the case began: its registration Ready, and the case compared. */
  readyAfterMs: number;
  doneAfterMs: number;
}

interface Batch {
  cluster: TestCluster;
  hook: ScriptedHook;
  renderHooks: ReturnType<typeof createHookClient>;
}

function instanceRef(names: CaseNames): ResourceRef {
  return { group: names.group, version: 'v1', resource: PLURAL, namespaced: true };
}

/** Every object of the namespace a child may be: what `kubectl get` would hand render with --observed. */
async function liveObjects(batch: Batch, namespace: string): Promise<KubeObject[]> {
  const lists = await Promise.all(
    CHILD_RESOURCES.map(async ({ apiVersion, kind, ref }) =>
      (await batch.cluster.client.list(ref, namespace)).items.map((item) => ({ ...item, apiVersion, kind })),
    ),
  );
  return lists.flat();
}

function controlledBy(objects: readonly KubeObject[], uid: string | undefined): KubeObject[] {
  return objects.filter((object) =>
    (object.metadata.ownerReferences ?? []).some((owner) => owner.controller === true && owner.uid === uid),
  );
}

/** The objects render looks things up in (--objects): the case's namespace and Scoby's ConfigMaps. */
async function lookupObjects(batch: Batch, names: CaseNames): Promise<KubeObject[]> {
  const configMaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
  const services = { group: '', version: 'v1', resource: 'services', namespaced: true };
  const [controllerConfigMaps, namespaceServices, namespace] = await Promise.all([
    batch.cluster.client.list(configMaps, SCOBY_NAMESPACE),
    batch.cluster.client.list(services, names.namespace),
    batch.cluster.get('v1', 'Namespace', undefined, names.namespace),
  ]);
  return [
    ...controllerConfigMaps.items.map((item) => ({ ...item, apiVersion: 'v1', kind: 'ConfigMap' })),
    ...namespaceServices.items.map((item) => ({ ...item, apiVersion: 'v1', kind: 'Service' })),
    ...(namespace ? [namespace] : []),
  ];
}

async function render(
  batch: Batch,
  names: CaseNames,
  instance: KubeObject,
  observed: readonly KubeObject[],
): Promise<OfflineRender> {
  const registration = await batch.cluster.get(
    'scoby.triggermesh.io/v1alpha1',
    'CRDRegistration',
    undefined,
    names.registration,
  );
  const crd = await batch.cluster.get(
    'apiextensions.k8s.io/v1',
    'CustomResourceDefinition',
    undefined,
    `${PLURAL}.${names.group}`,
  );
  const objects = await lookupObjects(batch, names);
  return renderOffline({
    registration: registration!,
    instance,
    ...(crd ? { crd } : {}),
    observed,
    formFactors: builtInFormFactors([]),
    lookups: objectLookups(objects, { scobyNamespace: SCOBY_NAMESPACE, clusterDomain: CLUSTER_DOMAIN }),
    clusterDomain: CLUSTER_DOMAIN,
    now: formatTime(new Date()),
    namespaces: objects.filter((object) => object.kind === 'Namespace'),
    hooks: {
      client: batch.renderHooks,
      resolveHook: (hook) =>
        resolveHookTarget(
          hook,
          (address) =>
            resolveDestination(address, { clusterDomain: CLUSTER_DOMAIN, reader: objectReader(objects) }),
          new Map(),
        ),
    },
  });
}

/** The versions of instance `name` the API server sends on a watch from `resourceVersion` on. */
function watchInstance(batch: Batch, names: CaseNames, name: string, resourceVersion: string | undefined) {
  const versions: KubeObject[] = [];
  const open = batch.cluster.client.watch(
    instanceRef(names),
    names.namespace,
    { resourceVersion, fieldSelector: `metadata.name=${name}` },
    {
      event: (event) => {
        if (event.type === 'ADDED' || event.type === 'MODIFIED') versions.push(event.object as KubeObject);
      },
      ended: () => {},
    },
  );
  return { versions, close: () => open.close() };
}

async function warningEvents(batch: Batch, names: CaseNames, name: string): Promise<string[]> {
  const events = await batch.cluster.events(names.namespace, name);
  return [
    ...new Set(
      events
        .filter((event) => event.type === 'Warning' && INSTANCE_WARNINGS.has(String(event.reason)))
        .map((event) => `${String(event.reason)}: ${String(event.message)}`),
    ),
  ].sort();
}

function hookRequests(
  batch: Batch,
  names: CaseNames,
  name: string,
  fromRender: boolean,
): HookRequestRecord[] {
  return batch.hook.requests.filter(
    (request) =>
      request.target === names.hookPath &&
      request.body.phase === 'pre-reconcile' &&
      request.body.object.metadata.name === name &&
      (request.headers['user-agent'] === RENDER_AGENT) === fromRender,
  );
}

/** Compared as compact JSON: object keys sorted, as no reader of these objects depends on their order. */
function differs(label: string, expected: unknown, actual: unknown): string[] {
  const [a, b] = [compactJson(expected ?? null), compactJson(actual ?? null)];
  return a === b ? [] : [`${label}\n  render:     ${a}\n  controller: ${b}`];
}

async function waitUntil<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = WAIT_MS,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const statusOf = (object: KubeObject | undefined) => object?.status as Record<string, unknown> | undefined;

/** One instance of a case: what it is compared with, and how its report is made. */
interface Subject {
  batch: Batch;
  names: CaseNames;
  planCase: PlanCase;
  instance: InstanceCase;
  name: string;
  report(outcome: string, differences: string[]): CaseReport;
}

/** The case's registration and what it reads, then each of its instances compared. */
async function runCase(batch: Batch, names: CaseNames, planCase: PlanCase): Promise<CaseReport[]> {
  const { cluster } = batch;
  const started = performance.now();
  let readyAfterMs = 0;
  const subject = (instance: InstanceCase, position: number): Subject => ({
    batch,
    names,
    planCase,
    instance,
    name: instanceName(position),
    report: (outcome, differences) => ({
      index: names.index,
      instance: instanceName(position),
      outcome,
      differences,
      readyAfterMs,
      doneAfterMs: performance.now() - started,
    }),
  });
  const subjects = planCase.instances.map(subject);
  for (const object of caseSurroundings(planCase, names)) await cluster.apply(object);
  await cluster.apply(caseCrd(planCase, names));
  await cluster.waitFor(`${KIND} served`, () => cluster.client.resourceFor(`${names.group}/v1`, KIND));
  await cluster.apply(caseRegistration(planCase, names, batch.hook.url));
  // Not compared, only waited for: how long depends on the machine (the registration controller
  // starts one instance controller per case of the batch with two workers).
  const ready = await waitUntil(async () => {
    const registration = await cluster.get(
      REGISTRATION_API,
      'CRDRegistration',
      undefined,
      names.registration,
    );
    return conditionOf(registration, 'Ready')?.status === 'True' ? registration : undefined;
  }, REGISTRATION_WAIT_MS);
  readyAfterMs = performance.now() - started;
  if (ready === undefined) {
    const registration = await cluster.get(
      REGISTRATION_API,
      'CRDRegistration',
      undefined,
      names.registration,
    );
    const conditions = JSON.stringify(conditionsOf(registration));
    return subjects.map((each) =>
      each.report('registration not ready', [`the registration is not Ready: ${conditions}`]),
    );
  }
  const observedBefore = await liveObjects(batch, names.namespace);
  return Promise.all(
    subjects.map(async (each, position) => {
      try {
        return await runInstance(each, position, observedBefore);
      } catch (error) {
        return each.report('error', [`the case failed: ${String(error)}`]);
      }
    }),
  );
}

async function runInstance(
  subject: Subject,
  position: number,
  observedBefore: readonly KubeObject[],
): Promise<CaseReport> {
  const { batch, names, instance } = subject;
  let created: KubeObject;
  try {
    created = await batch.cluster.client.create(instanceRef(names), caseInstance(instance, names, position));
  } catch (error) {
    // The API server refused the instance: render's admission (--crd) must refuse it alike.
    const rendered = await render(batch, names, caseInstance(instance, names, position), observedBefore);
    const message = error instanceof ApiError ? error.message : String(error);
    const verdict = rendered.ok ? 'accepted' : rendered.failure.message;
    return subject.report(
      'instance refused',
      differs('the instance refused by the API server', verdict, message),
    );
  }
  const watch = watchInstance(batch, names, subject.name, created.metadata.resourceVersion);
  try {
    return await compareInstance(subject, created, observedBefore, watch.versions);
  } finally {
    watch.close();
  }
}

/** Step 1: the instance as created, and the live objects of the namespace. */
async function compareInstance(
  subject: Subject,
  created: KubeObject,
  observedBefore: readonly KubeObject[],
  versions: readonly KubeObject[],
): Promise<CaseReport> {
  const { batch, names, planCase, name } = subject;
  const rendered = await render(batch, names, created, observedBefore);
  const renderedRequest = hookRequests(batch, names, name, true)[0];
  const hasStatus = planCase.crdStatus !== 'none';
  const differences: string[] = [];
  const ownChildren = async () =>
    controlledBy(await liveObjects(batch, names.namespace), created.metadata.uid);

  if (!rendered.ok && rendered.failure.status === undefined) {
    // Not the plan's: render stopped before it (the instance not selected).
    await new Promise((resolve) => setTimeout(resolve, 500));
    const current = await batch.cluster.get(created.apiVersion, KIND, names.namespace, name);
    if ((await ownChildren()).length > 0 || statusOf(current) !== undefined)
      differences.push(
        `render: ${rendered.failure.reason}: ${rendered.failure.message}; the controller wrote to the instance`,
      );
    return subject.report(rendered.failure.reason, differences);
  }

  // The controller's first status write (without a status subresource: its children or Events).
  const first = hasStatus
    ? await waitUntil(() => versions.find((version) => statusOf(version) !== undefined))
    : undefined;
  if (hasStatus && first === undefined) {
    const expected = rendered.ok
      ? 'children and status'
      : `${rendered.failure.reason}: ${rendered.failure.message}`;
    const events = JSON.stringify(await warningEvents(batch, names, name));
    return subject.report('no status', [
      `render: ${expected}; the controller wrote no status, Events: ${events}`,
    ]);
  }
  const expectedStatus = rendered.ok ? rendered.output.status : rendered.failure.status;
  if (hasStatus)
    differences.push(
      ...differs(
        'the first status',
        normalisedStatus(expectedStatus, undefined),
        normalisedStatus(statusOf(first), undefined),
      ),
    );

  const expectedWarnings = [
    ...(rendered.ok ? rendered.output.warnings : (rendered.warnings ?? [])),
    ...(rendered.ok ? [] : [rendered.failure]),
  ]
    .filter((warning) => INSTANCE_WARNINGS.has(warning.reason))
    .map((warning) => `${warning.reason}: ${warning.message}`);
  const unique = [...new Set(expectedWarnings)].sort();
  const events =
    (await waitUntil(async () => {
      const current = await warningEvents(batch, names, name);
      return unique.every((warning) => current.includes(warning)) ? current : undefined;
    })) ?? (await warningEvents(batch, names, name));
  differences.push(...differs('the Warning Events', unique, events));

  if (rendered.ok) {
    const printed = Object.values(rendered.output.children);
    const live = await waitUntil(async () => {
      const current = await ownChildren();
      return current.length >= printed.length || hasStatus ? current : undefined;
    });
    differences.push(...childDifferences(printed, live ?? []));
  } else if (rendered.failure.reason !== 'ApplyFailed' && (await ownChildren()).length > 0) {
    differences.push(`render: ${rendered.failure.reason}; the controller wrote children`);
  }

  const controllerRequest = hookRequests(batch, names, name, false)[0];
  differences.push(
    ...differs(
      'the pre-reconcile request',
      renderedRequest && normalisedHookRequest(renderedRequest.body, created.status),
      controllerRequest && normalisedHookRequest(controllerRequest.body, created.status),
    ),
  );
  const ignored =
    rendered.ok && conditionOf(rendered.instance, 'HookSucceeded')?.reason === 'HookFailedIgnored';
  const outcome = rendered.ok
    ? `written${ignored ? ' (hook failure ignored)' : ''}${hasStatus ? '' : ' (no status)'}`
    : rendered.failure.reason;
  if (!rendered.ok || !hasStatus || differences.length > 0) return subject.report(outcome, differences);
  const observed = await compareObserved(subject, created);
  return subject.report(`${outcome}, then ${observed.ready}`, observed.differences);
}

/** Step 2: the children report the case's status; the controller's next status against render's. */
async function compareObserved(
  subject: Subject,
  created: KubeObject,
): Promise<{ ready: string; differences: string[] }> {
  const { batch, names, instance, name } = subject;
  const { cluster } = batch;
  const read = () => cluster.get(created.apiVersion, KIND, names.namespace, name);
  const stored = await read();
  if (stored === undefined) return { ready: 'gone', differences: ['the instance is gone'] };
  for (const child of controlledBy(await liveObjects(batch, names.namespace), created.metadata.uid)) {
    const status = observedStatus(child, instance.observed);
    const resource = CHILD_RESOURCES.find(
      (entry) => entry.apiVersion === child.apiVersion && entry.kind === child.kind,
    );
    if (status === undefined || resource === undefined) continue;
    await cluster.client.patch(
      resource.ref,
      names.namespace,
      child.metadata.name ?? '',
      { status },
      {
        subresource: 'status',
      },
    );
  }
  const rendered = await render(batch, names, stored, await liveObjects(batch, names.namespace));
  if (!rendered.ok) {
    const failure = `${rendered.failure.reason}: ${rendered.failure.message}`;
    return { ready: 'failed', differences: [`render of the observed children failed: ${failure}`] };
  }
  const readyCondition = conditionOf(rendered.instance, 'Ready');
  const ready = `Ready=${readyCondition?.status ?? ''}/${readyCondition?.reason ?? ''}`;
  const expected = compactJson(normalisedStatus(rendered.output.status, stored.status) ?? null);
  const statusNow = async () => compactJson(normalisedStatus(statusOf(await read()), stored.status) ?? null);
  const matched = await waitUntil(async () => ((await statusNow()) === expected ? true : undefined));
  return {
    ready,
    differences: matched
      ? []
      : [
          `the status for the observed children\n  render:     ${expected}\n  controller: ${await statusNow()}`,
        ],
  };
}

/** Runs `cases` (each with its index in the run) on a cluster of their own; the reports in case order. */
export async function runBatch(cases: readonly { input: PlanCase; index: number }[]): Promise<CaseReport[]> {
  const byPath = new Map(cases.map(({ input, index }) => [caseNames(index).hookPath, input]));
  const hook = await startScriptedHook((request) => {
    const planCase = byPath.get(request.target.split('?')[0] ?? '');
    const position = Number((request.body.object.metadata.name ?? '').slice(1));
    const instance = planCase?.instances[position];
    return instance ? hookReply(instance.answer, request.body) : { status: 404 };
  });
  const cluster = await startTestCluster({
    server: { simulate: { deployments: false, knativeServices: false, statefulSets: false } },
    concurrency: 8,
  });
  const batch: Batch = {
    cluster,
    hook,
    renderHooks: createHookClient({ formFactorFormat: 'string', userAgent: RENDER_AGENT }),
  };
  try {
    await cluster.apply(crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' }));
    const reports = await Promise.all(
      cases.map(({ input, index }) => runCase(batch, caseNames(index), input)),
    );
    return reports.flat();
  } finally {
    batch.renderHooks.close();
    await cluster.stop();
    await hook.close();
  }
}
