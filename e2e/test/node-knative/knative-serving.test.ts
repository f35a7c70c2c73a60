/**
 * The Knative Service form factor against real Knative Serving (v0.42.2, the 1.15 line) and Traefik
 * on the node container, Scoby installed by its chart (E2E_KNATIVE=1): Knative's webhooks admit what
 * Scoby renders, its Revision runs the registered image with exactly the env Scoby rendered, Scoby
 * leaves the Service alone while Knative defaults it and writes its status (counted in the node API
 * server's audit log), the instance's status follows the Service's own verdict, a new image rolls a
 * new Revision, garbage collection removes the Service, and `scoby render` gives the admitted object.
 * Each `it` builds on the one before (one Service followed through its life), in file order.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAuditLog, type AuditEntry } from '@scoby/kube-control-plane';
import type { KubeObject } from '@scoby/kube-objects';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  adapterOf,
  clusterForScenario,
  conditionOf,
  conditionsOf,
  crdYaml,
  registeredKindYaml,
  statusOf,
  type ClusterHandle,
  type ConditionView,
  type KindNames,
} from '../../src/index.ts';
import { suiteNode } from '../../src/faults/node-container.ts';
import { GREETER_ENV_IMAGE } from '../../src/greeter-sample.ts';
import { knativeOrReason } from '../../src/node-only.ts';
import { fetchFromPod } from '../../src/pods.ts';
import { SCOBY_NAMESPACE } from '../../src/settings.ts';

const NAMESPACE = 'knative-scoby';
const ECHO: KindNames = { group: 'knative.scoby.dev', kind: 'Echo', plural: 'echoes' };
/** A kind whose registered image exits at once (Knative's queue-proxy without its settings). */
const CRASH: KindNames = { group: 'knative.scoby.dev', kind: 'Crash', plural: 'crashes' };
const SERVICE = 'echo-hello';
const KSVC = 'serving.knative.dev/v1';
/** The audit log of the node's API server: writes of Knative Services (e2e/images/node/audit-policy.yaml). */
const AUDIT_LOG = '/var/log/scoby-node/audit.jsonl';
/** Knative starts a Revision's pod, pulls nothing, and programs Traefik within this on a loaded machine. */
const KNATIVE_MS = 300_000;
/** How long Scoby must leave a Ready Service alone while Knative's controllers keep writing it. */
const STEADY_MS = 180_000;
const ROLLED_IMAGE = 'scoby.local/greeter-env:rolled';

const skipped = knativeOrReason();

function registration(name: string, kind: KindNames, image: string): string {
  return `
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: ${name}}
spec:
  crd: ${kind.plural}.${kind.group}
  workload:
    fromImage: {repo: ${image}}
    formFactor:
      knativeService:
        minScale: 1
        visibility: cluster-local
    parameterConfiguration:
      fromSpec:
        toEnv:
          - {path: spec.greeting, name: GREETING}
      add:
        toEnv:
          - name: POD_NAMESPACE
            valueFrom: {field: {fieldPath: metadata.namespace}}
`;
}

let cluster: ClusterHandle;
beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  await cluster.apply(registeredKindYaml(ECHO, NAMESPACE));
  await cluster.apply(registeredKindYaml(CRASH, NAMESPACE));
  await cluster.apply(registration('echo', ECHO, GREETER_ENV_IMAGE));
  // Built by `npm run images -- knative` and preloaded: it exits at once, asking for settings.
  await cluster.apply(registration('crash', CRASH, 'scoby.local/knative-queue:v0.42.2'));
  await cluster.apply(instance(ECHO, 'hello', 'Hello from Knative'));
  await cluster.apply(instance(CRASH, 'exits', 'never heard'));
});
afterAll(() => cluster?.close());

function instance(kind: KindNames, name: string, greeting: string): KubeObject {
  return {
    apiVersion: `${kind.group}/v1`,
    kind: kind.kind,
    metadata: { name, namespace: NAMESPACE },
    spec: { greeting },
  };
}

type KnativeCondition = { type: string; status: string; reason?: string; message?: string };
/** A condition of a Knative object as Knative wrote it (reason and message absent when it wrote none). */
const knativeCondition = (object: KubeObject | undefined, type: string): KnativeCondition | undefined =>
  (object?.status as { conditions?: KnativeCondition[] } | undefined)?.conditions?.find(
    (condition) => condition.type === type,
  );

function waitForService(description: string, accept: (ksvc: KubeObject) => boolean, name = SERVICE) {
  return cluster.waitFor(
    `Knative Service ${NAMESPACE}/${name} ${description}`,
    async () => {
      const ksvc = await cluster.get(KSVC, 'Service', NAMESPACE, name);
      return ksvc !== undefined && accept(ksvc) ? ksvc : undefined;
    },
    KNATIVE_MS,
  );
}

const isTrue = (type: string) => (object: KubeObject) => knativeCondition(object, type)?.status === 'True';

/** Writes of the Knative Service `name` in the node API server's audit log, in the order it wrote them. */
async function serviceWrites(name: string): Promise<AuditEntry[]> {
  const node = await suiteNode();
  return parseAuditLog(await node.exec(['cat', AUDIT_LOG])).filter(
    (entry) =>
      entry.stage === 'ResponseComplete' &&
      entry.objectRef?.apiGroup === 'serving.knative.dev' &&
      entry.objectRef.resource === 'services' &&
      entry.objectRef.namespace === NAMESPACE &&
      entry.objectRef.name === name,
  );
}

const byScoby = (entry: AuditEntry) => entry.user.startsWith(`system:serviceaccount:${SCOBY_NAMESPACE}:`);
const describeWrite = (entry: AuditEntry) =>
  `${entry.verb}${entry.objectRef?.subresource ? `/${entry.objectRef.subresource}` : ''} by ${entry.user} -> ${entry.code ?? '?'}`;

type EnvVar = { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } };

function renderedEnv(ksvc: KubeObject): EnvVar[] {
  const template = (ksvc.spec as { template: { spec: { containers: { env?: EnvVar[] }[] } } }).template;
  return template.spec.containers[0]?.env ?? [];
}

let readyService: KubeObject;
let firstRevision: string;

describe.skipIf(skipped !== undefined)('the Knative Service form factor on Knative Serving', () => {
  it("copies a Service's Ready=Unknown (its Revision on its way) into KnativeServiceReady, and Ready and Reconciling follow", async () => {
    const seen = await crashCopied('Unknown');
    const message = seen.service.message;
    expect(seen.instance).toEqual([
      { type: 'KnativeServiceReady', status: 'Unknown', reason: 'KNSERVICEUNKOWN', message },
      { type: 'Ready', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      {
        type: 'Reconciling',
        status: 'True',
        reason: 'Progressing',
        message: `KnativeServiceReady=Unknown: KNSERVICEUNKOWN: ${message}`,
      },
    ]);
  });

  it("is admitted by Knative's webhooks, and its Revision runs the registered image with exactly the env Scoby rendered", async () => {
    const ksvc = await waitForService('with its Configuration ready', isTrue('ConfigurationsReady'));
    const annotations = ksvc.metadata.annotations ?? {};
    // The defaulting webhook ran on Scoby's create: it names the creator.
    expect(annotations['serving.knative.dev/creator']).toMatch(
      new RegExp(`^system:serviceaccount:${SCOBY_NAMESPACE}:`),
    );
    expect(renderedEnv(ksvc)).toEqual([
      { name: 'GREETING', value: 'Hello from Knative' },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
    ]);
    firstRevision = String(statusOf(ksvc).latestReadyRevisionName);
    const revision = await cluster.get(KSVC, 'Revision', NAMESPACE, firstRevision);
    const container = (revision?.spec as { containers: { image: string; env?: EnvVar[] }[] }).containers[0];
    expect({ image: container?.image, env: container?.env }).toEqual({
      image: GREETER_ENV_IMAGE,
      env: renderedEnv(ksvc),
    });
    const answer = await fetchFromPod(
      cluster,
      NAMESPACE,
      'ask-revision-env',
      `http://${firstRevision}-private.${NAMESPACE}.svc.cluster.local/env`,
    );
    expect(answer.status).toBe(200);
    const printed = (answer.body as { env: Record<string, string> }).env;
    const expected = { GREETING: 'Hello from Knative', POD_NAMESPACE: NAMESPACE };
    const seen = Object.fromEntries(Object.keys(expected).map((name) => [name, printed[name]]));
    console.log(
      `[e2e] knative: Revision ${firstRevision} (through ${firstRevision}-private) printed ${JSON.stringify(seen)}; ` +
        `Knative's own: K_SERVICE=${printed.K_SERVICE} K_REVISION=${printed.K_REVISION} PORT=${printed.PORT}`,
    );
    expect(seen).toEqual(expected);
  });

  it("copies the Service's Ready into KnativeServiceReady, Ready follows it, and status.address.url is the Service's", async () => {
    readyService = await waitForService('Ready', isTrue('Ready'));
    const echo = await cluster.waitForObject(
      `${ECHO.group}/v1`,
      ECHO.kind,
      NAMESPACE,
      'hello',
      'to be Ready',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
    console.log(
      `[e2e] knative: Service Ready ${JSON.stringify(knativeCondition(readyService, 'Ready'))}; instance ${JSON.stringify(conditionsOf(echo))}`,
    );
    expect(conditionsOf(echo)).toEqual([
      { type: 'KnativeServiceReady', status: 'True', reason: 'KNSERVICEOK', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    const url = (statusOf(readyService).address as { url?: string } | undefined)?.url;
    expect(url).toBe(`http://${SERVICE}.${NAMESPACE}.svc.cluster.local`);
    expect(statusOf(echo).address).toEqual({ url });
    const answer = await fetchFromPod(cluster, NAMESPACE, 'ask-service-url', String(url));
    console.log(`[e2e] knative: ${url} answered ${answer.status} from another pod (through Traefik)`);
    expect(answer).toMatchObject({ status: 200, body: { path: '/' } });
  });

  it('makes no write to a Ready Service while Knative defaults it and writes its status, and one apply per instance edit', async () => {
    const before = await serviceWrites(SERVICE);
    console.log(`[e2e] knative: writes of ${SERVICE} until Ready: ${before.map(describeWrite).join('; ')}`);
    expect(before.filter(byScoby).map(scobyWrite)).toEqual(['create -> 201']);
    await new Promise((resolve) => setTimeout(resolve, STEADY_MS));
    const during = (await serviceWrites(SERVICE)).slice(before.length);
    console.log(
      `[e2e] knative: in ${STEADY_MS / 1000} s steady: ${during.filter(byScoby).length} writes by Scoby, ` +
        `${during.filter((entry) => !byScoby(entry)).length} by others (${during.map(describeWrite).join('; ') || 'none'})`,
    );
    expect(during.filter(byScoby).map(describeWrite)).toEqual([]);

    // The first edit after the create also hands the fields Scoby set with POST to its applies (a JSON
    // patch of managedFields alone, children-and-status.md §5.3); every later edit is one apply.
    const seen = before.length + during.length;
    const first = await editGreeting('Hello from Knative', 'Hello again', seen);
    expect(first.writes).toEqual(['managedFields hand-over -> 200', 'apply -> 200']);
    const second = await editGreeting('Hello again', 'Hello a third time', seen + first.count);
    expect(second.writes).toEqual(['apply -> 200']);
  });

  it('`scoby render` of the same registration and instance gives the object Knative admitted', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'scoby-knative-render-'));
    const live = (await cluster.get(KSVC, 'Service', NAMESPACE, SERVICE))!;
    const registrationObject = (await cluster.get(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      'echo',
    ))!;
    const echo = (await cluster.get(`${ECHO.group}/v1`, ECHO.kind, NAMESPACE, 'hello'))!;
    const files = {
      registration: join(folder, 'registration.yaml'),
      instance: join(folder, 'instance.yaml'),
      crd: join(folder, 'crd.yaml'),
    };
    await writeFile(files.registration, stringify(registrationObject));
    await writeFile(files.instance, stringify(echo));
    await writeFile(files.crd, crdYaml(ECHO));
    const bin = new URL('../../../apps/controller/bin/scoby.js', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        bin,
        'render',
        '--registration',
        files.registration,
        '--instance',
        files.instance,
        '--crd',
        files.crd,
        '-o',
        'json',
      ],
      { env: { ...process.env, CLUSTER_DOMAIN: 'cluster.local' } },
    );
    const rendered = Object.values(
      (JSON.parse(stdout) as { children: Record<string, KubeObject> }).children,
    ).find((child) => child.kind === 'Service' && child.apiVersion === KSVC)!;
    expect(rendered.metadata.name).toBe(SERVICE);
    // Every field the render holds is what the admitted Service holds (Knative's defaults beside them).
    expect(live.metadata.labels).toEqual(rendered.metadata.labels);
    expect(live.metadata.ownerReferences).toEqual(rendered.metadata.ownerReferences);
    expect(live.metadata.annotations).toMatchObject(rendered.metadata.annotations ?? {});
    // toMatchObject: objects on the rendered keys, arrays of equal length element by element (§5.2).
    expect(live.spec).toMatchObject(rendered.spec ?? {});
    console.log(
      `[e2e] knative: fields Knative's webhook defaulted beside Scoby's, which Scoby leaves alone: ${[
        ...addedPaths(live.metadata.annotations, rendered.metadata.annotations, 'metadata.annotations'),
        ...addedPaths(live.spec, rendered.spec, 'spec'),
      ].join(', ')}`,
    );
    // And Knative's webhooks admit it as it is (a dry run of a create under another name).
    const dryRun = await cluster.client.request<KubeObject>(
      'POST',
      await cluster.client.pathOf(KSVC, 'Service', NAMESPACE),
      {
        body: { ...rendered, metadata: { ...rendered.metadata, name: `${SERVICE}-rendered` } },
        query: { dryRun: 'All' },
      },
    );
    console.log(
      `[e2e] knative: the rendered Service admitted (dry run); Knative added annotations ${JSON.stringify(
        Object.keys(dryRun.metadata.annotations ?? {}).filter(
          (key) => !(key in (rendered.metadata.annotations ?? {})),
        ),
      )}`,
    );
    expect(adapterOf(dryRun)).toMatchObject(adapterOf(rendered) ?? {});
  });

  it("copies a Service's Ready=False (a Revision past its progress deadline) with its reason and message, and Ready and kstatus follow", async () => {
    const seen = await crashCopied('False');
    const { reason, message } = seen.service;
    const part = ['KnativeServiceReady=False', reason, message].filter((text) => text !== '').join(': ');
    const gaveUp = reason === 'ProgressDeadlineExceeded' || reason === 'CrashLoopBackOff';
    expect(seen.instance).toEqual([
      { type: 'KnativeServiceReady', status: 'False', reason, message },
      { type: 'Ready', status: 'False', reason: 'CONDITIONSNOTOK', message: part },
      gaveUp
        ? { type: 'Stalled', status: 'True', reason, message: part }
        : { type: 'Reconciling', status: 'True', reason: 'Progressing', message: part },
    ]);
  });

  it('rolls a new Revision for a new image in the registration, and garbage collection removes the Service with its instance', async () => {
    const node = await suiteNode();
    await node.exec(['ctr', '-n', 'k8s.io', 'images', 'tag', GREETER_ENV_IMAGE, ROLLED_IMAGE]);
    const previous = String(
      statusOf((await cluster.get(KSVC, 'Service', NAMESPACE, SERVICE))!).latestReadyRevisionName,
    );
    await cluster.apply(registration('echo', ECHO, ROLLED_IMAGE));
    const rolled = await waitForService(
      'Ready on a Revision of the new image',
      (ksvc) => isTrue('Ready')(ksvc) && statusOf(ksvc).latestReadyRevisionName !== previous,
    );
    const revisionName = String(statusOf(rolled).latestReadyRevisionName);
    const revision = await cluster.get(KSVC, 'Revision', NAMESPACE, revisionName);
    const image = (revision?.spec as { containers: { image: string }[] }).containers[0]?.image;
    console.log(`[e2e] knative: Revision ${previous} -> ${revisionName} running ${image}`);
    expect(image).toBe(ROLLED_IMAGE);
    expect(statusOf(rolled).traffic).toEqual([{ revisionName, latestRevision: true, percent: 100 }]);

    await cluster.remove(instance(ECHO, 'hello', ''));
    await cluster.waitForCollected(KSVC, 'Service', NAMESPACE, SERVICE);
    // Knative's own children go the same way: its Configuration owns the Revisions.
    await cluster.waitForCollected(KSVC, 'Revision', NAMESPACE, revisionName);
  });
});

/**
 * Edits the greeting of the Echo instance and waits until its Service is Ready on the Revision of
 * the new env (plus 20 s for late writes); checks that only the greeting, the desired hash and the
 * generation moved; returns Scoby's writes of the Service after the first `seen` writes, described.
 */
async function editGreeting(
  from: string,
  to: string,
  seen: number,
): Promise<{ writes: string[]; count: number }> {
  const unchanged = (await cluster.get(KSVC, 'Service', NAMESPACE, SERVICE))!;
  const revisionBefore = statusOf(unchanged).latestReadyRevisionName;
  await cluster.apply(instance(ECHO, 'hello', to));
  const edited = await waitForService(`with the greeting "${to}"`, (ksvc) =>
    renderedEnv(ksvc).some((variable) => variable.value === to),
  );
  await waitForService(
    'Ready on its new Revision',
    (ksvc) => isTrue('Ready')(ksvc) && statusOf(ksvc).latestReadyRevisionName !== revisionBefore,
  );
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  const after = (await serviceWrites(SERVICE)).slice(seen);
  console.log(`[e2e] knative: after the edit to "${to}": ${after.map(describeWrite).join('; ')}`);
  const hash = 'scoby.triggermesh.io/desired-hash';
  const withoutMoving = (ksvc: KubeObject, greeting: string) => ({
    labels: ksvc.metadata.labels,
    annotations: { ...ksvc.metadata.annotations, [hash]: undefined },
    ownerReferences: ksvc.metadata.ownerReferences,
    spec: JSON.parse(JSON.stringify(ksvc.spec).replaceAll(JSON.stringify(greeting), '"GREETING"')) as unknown,
  });
  expect(withoutMoving(edited, to)).toEqual(withoutMoving(unchanged, from));
  expect(edited.metadata.annotations?.[hash]).not.toBe(unchanged.metadata.annotations?.[hash]);
  expect(edited.metadata.generation).toBe((unchanged.metadata.generation ?? 0) + 1);
  return { writes: after.filter(byScoby).map(scobyWrite), count: after.length };
}

/** One of Scoby's writes of the Service: its create, an apply, or the JSON patch handing over managedFields. */
function scobyWrite(entry: AuditEntry): string {
  const code = `-> ${entry.code ?? '?'}`;
  if (entry.verb === 'create') return `create ${code}`;
  if (entry.verb === 'patch' && Array.isArray(entry.requestObject)) {
    const paths = (entry.requestObject as { path: string }[]).map((operation) => operation.path);
    return paths.every((path) => path.startsWith('/metadata/managedFields/'))
      ? `managedFields hand-over ${code}`
      : `JSON patch of ${paths.join(', ')} ${code}`;
  }
  if (entry.verb === 'patch' && entry.requestURI.includes('fieldManager=')) return `apply ${code}`;
  return `${entry.verb} ${entry.requestURI} ${code}`;
}

/**
 * Waits until the crashing instance's Knative Service has `Ready` of `status` and the instance's
 * `KnativeServiceReady` says the same (its reason and message as the table of §8.3 maps them), read
 * together; returns both as seen then.
 */
async function crashCopied(
  status: 'Unknown' | 'False',
): Promise<{ service: { status: string; reason: string; message: string }; instance: ConditionView[] }> {
  const seen = await cluster.waitFor(
    `the crashing instance to copy its Service's Ready=${status}`,
    async () => {
      const ksvc = await cluster.get(KSVC, 'Service', NAMESPACE, 'crash-exits');
      const crash = await cluster.get(`${CRASH.group}/v1`, CRASH.kind, NAMESPACE, 'exits');
      const ready = knativeCondition(ksvc, 'Ready');
      const copy = conditionOf(crash, 'KnativeServiceReady');
      if (ready?.status !== status || copy?.status !== status || copy.message !== (ready.message ?? ''))
        return undefined;
      return {
        service: { status: ready.status, reason: ready.reason ?? '', message: ready.message ?? '' },
        instance: conditionsOf(crash),
      };
    },
    KNATIVE_MS,
  );
  console.log(
    `[e2e] knative: crashing Service Ready ${JSON.stringify(seen.service)}; instance ${JSON.stringify(seen.instance)}`,
  );
  return seen;
}

/** The leaves of `have` that `want` does not hold (arrays by index): what others added beside `want`. */
function addedPaths(have: unknown, want: unknown, path: string): string[] {
  if (have === null || typeof have !== 'object') return want === undefined ? [path] : [];
  const entries = Array.isArray(have)
    ? have.map((item, index) => [String(index), item] as const)
    : Object.entries(have);
  const wanted = (want ?? {}) as Record<string, unknown>;
  return entries.flatMap(([key, value]) => {
    const at = Array.isArray(have) ? `${path}[${key}]` : `${path}.${key}`;
    return wanted[key] === undefined ? [at] : addedPaths(value, wanted[key], at);
  });
}
