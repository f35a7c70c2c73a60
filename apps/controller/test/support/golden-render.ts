/**
 * The golden comparison of `scoby render` with what the controller wrote on a cluster, shared by the
 * in-memory server's test and the real control plane's. For one sample (CRD, registration, objects,
 * instance of test/cli/fixtures/scoby-samples) it registers the kind, creates the instance, catches
 * the controller's first status write with a watch, and checks that:
 *
 * - the instance document `scoby render` prints for the instance as created carries exactly that
 *   status (rendered with `--now` at the write's time, the one value render cannot know);
 * - every child it prints is on the cluster: same desired-hash annotation (the SHA-256 of the object
 *   the controller sent), every printed field with the printed value, and no other child exists;
 * - once the instance is Ready, `--observed` with the live children gives exactly the live status.
 *
 * `manifestStream` is the `| kubectl apply -f -` half: what render prints for the sample's manifest
 * (`acceptedStream`: the API server creates every document, dry run).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Watch } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
import { expect } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { DESIRED_HASH_ANNOTATION } from '../../src/instance/children/update-detection.ts';
import { runCli } from '../../src/cli/program.ts';
import { resourcePath } from '@scoby/controller-runtime';
import { FIXTURES, recordingIo } from '../cli/cli-io.ts';
import type { ClusterVerbs } from './cluster.ts';
import { conditionOf, namespaceObject, REGISTRATION_API } from './scoby.ts';

export const SAMPLES = join(FIXTURES, 'scoby-samples');

export interface GoldenSample {
  crd: string;
  registration: string;
  instance: string;
  /** Objects the instance's references name (created in the namespace first). */
  objects: string[];
  /** Where the instance is created (its manifest may name none). */
  namespace: string;
}

export interface GoldenOutcome {
  /** The instance as created, and the children render printed for it (for server-specific checks). */
  created: KubeObject;
  children: KubeObject[];
}

export async function sampleObjects(file: string): Promise<KubeObject[]> {
  return parseAllDocuments(await readFile(join(SAMPLES, file), 'utf8'))
    .map((document) => (document as { toJS(): unknown }).toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

async function sampleObject(file: string): Promise<KubeObject> {
  return parse(await readFile(join(SAMPLES, file), 'utf8')) as KubeObject;
}

async function tempFile(name: string, objects: readonly KubeObject[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'scoby-golden-')), name);
  await writeFile(file, objects.map((object) => JSON.stringify(object)).join('\n---\n'));
  return file;
}

/** `withoutUid`: the instance is a manifest, so render warns that the children name no owner. */
async function renderText(args: string[], withoutUid = false): Promise<string> {
  const recorded = recordingIo({ CLUSTER_DOMAIN: 'cluster.local' }, SAMPLES);
  const code = await runCli(['render', ...args], recorded.io);
  expect({ code, stderr: recorded.stderr() }).toEqual({
    code: 0,
    stderr: withoutUid ? expect.stringMatching(/^Warning: NoInstanceUID: /) : '',
  });
  return recorded.stdout();
}

async function render(args: string[]): Promise<KubeObject[]> {
  return parseAllDocuments(await renderText(args)).map(
    (document) => (document as { toJS(): unknown }).toJS() as KubeObject,
  );
}

/** `live` cut down to the fields `shape` has (arrays item by item), for a readable comparison. */
function projectOnto(live: unknown, shape: unknown): unknown {
  if (Array.isArray(shape)) {
    return Array.isArray(live) ? shape.map((item, index) => projectOnto(live[index], item)) : live;
  }
  if (typeof shape === 'object' && shape !== null) {
    if (typeof live !== 'object' || live === null || Array.isArray(live)) return live;
    const record = live as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(shape).map(([key, value]) => [key, projectOnto(record[key], value)]),
    );
  }
  return live;
}

/** The first object of the instance's watch, from `resourceVersion` on, that has status conditions. */
async function firstStatusWrite(
  cluster: ClusterVerbs,
  path: string,
  created: KubeObject,
  timeoutMs: number,
): Promise<KubeObject> {
  const watch = new Watch(cluster.client.kubeConfig);
  let abort: AbortController | undefined;
  try {
    return await new Promise<KubeObject>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no status write on ${path} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      watch
        .watch(
          path,
          { resourceVersion: created.metadata.resourceVersion },
          (_type: string, object: KubeObject) => {
            const conditions = (object.status as { conditions?: unknown[] } | undefined)?.conditions;
            if (object.metadata?.name === created.metadata.name && Array.isArray(conditions)) {
              clearTimeout(timer);
              resolve(object);
            }
          },
          (error: unknown) => {
            if (error) reject(error as Error);
          },
        )
        .then((controller) => (abort = controller), reject);
    });
  } finally {
    abort?.abort();
  }
}

function crdNames(crd: KubeObject): { group: string; version: string; plural: string } {
  const spec = crd.spec as { group: string; names: { plural: string }; versions: { name: string }[] };
  return { group: spec.group, version: spec.versions[0]?.name ?? '', plural: spec.names.plural };
}

/** Registers the sample's kind; `grants` are what the cluster needs besides (RBAC on a real one). */
export async function registerSample(
  cluster: ClusterVerbs,
  sample: GoldenSample,
  grants: KubeObject[],
  timeoutMs: number,
): Promise<void> {
  await cluster.apply(namespaceObject(sample.namespace));
  for (const object of [...grants, await sampleObject(sample.crd)]) await cluster.apply(object);
  for (const file of sample.objects) {
    for (const object of await sampleObjects(file)) {
      // A kind whose CRD was just created is served a moment later.
      await cluster.waitFor(
        `${object.apiVersion} ${object.kind} served`,
        async () => (await cluster.client.resourceFor(object.apiVersion, object.kind)) !== undefined,
        timeoutMs,
      );
      await cluster.apply({ ...object, metadata: { ...object.metadata, namespace: sample.namespace } });
    }
  }
  const registration = await sampleObject(sample.registration);
  await cluster.apply(registration);
  await cluster.waitFor(
    `registration ${registration.metadata.name ?? ''} Ready`,
    async () =>
      conditionOf(
        await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, registration.metadata.name ?? ''),
        'Ready',
      )?.status === 'True',
    timeoutMs,
  );
}

/**
 * Deletes the sample's registration and waits until it is gone, its controller still running to
 * release its finalizer: test files share a real control plane, and a later one may use the name.
 */
export async function unregisterSample(
  cluster: ClusterVerbs,
  sample: GoldenSample,
  timeoutMs: number,
): Promise<void> {
  const name = (await sampleObject(sample.registration)).metadata.name ?? '';
  const registration = await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, name);
  if (registration === undefined) return;
  await cluster.remove(registration);
  await cluster.waitFor(
    `registration ${name} gone`,
    async () => (await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, name)) === undefined,
    timeoutMs,
  );
}

export async function checkGolden(
  cluster: ClusterVerbs,
  sample: GoldenSample,
  timeoutMs: number,
): Promise<GoldenOutcome> {
  const crd = await sampleObject(sample.crd);
  const { group, version, plural } = crdNames(crd);
  const manifest = await sampleObject(sample.instance);
  const created = await cluster.apply({
    ...manifest,
    metadata: { ...manifest.metadata, namespace: sample.namespace },
  });
  const path = `/apis/${group}/${version}/namespaces/${sample.namespace}/${plural}`;
  const firstWrite = await firstStatusWrite(cluster, path, created, timeoutMs);
  const writeTime = (firstWrite.status as { conditions: { lastTransitionTime: string }[] }).conditions[0]
    ?.lastTransitionTime;
  const args = ['--registration', sample.registration, '--crd', sample.crd];
  for (const file of sample.objects) args.push('--objects', file);

  const [instance, ...children] = await render([
    ...args,
    '--instance',
    await tempFile('instance.json', [created]),
    '--now',
    writeTime ?? '',
  ]);
  expect(instance?.status).toEqual(firstWrite.status);

  const owned = (
    await Promise.all(
      [
        ['apps/v1', 'Deployment'],
        ['v1', 'Service'],
      ].map(async ([apiVersion = '', kind = '']) =>
        // kube-apiserver's list items carry no apiVersion and kind.
        (await cluster.list(apiVersion, kind, sample.namespace)).map((item) => ({
          ...item,
          apiVersion,
          kind,
        })),
      ),
    )
  )
    .flat()
    .filter((object) =>
      object.metadata.ownerReferences?.some((reference) => reference.uid === created.metadata.uid),
    );
  expect(owned.map((object) => `${object.kind}/${object.metadata.name ?? ''}`).sort()).toEqual(
    children.map((child) => `${child.kind}/${child.metadata.name ?? ''}`).sort(),
  );
  for (const child of children) {
    const live = owned.find(
      (object) => object.kind === child.kind && object.metadata.name === child.metadata.name,
    );
    expect(live?.metadata.annotations?.[DESIRED_HASH_ANNOTATION]).toBe(
      child.metadata.annotations?.[DESIRED_HASH_ANNOTATION],
    );
    expect(projectOnto(live, child)).toEqual(child);
  }

  const ready = await cluster.waitFor(
    'the instance Ready',
    async () => {
      const current = await cluster.get(
        manifest.apiVersion,
        manifest.kind,
        sample.namespace,
        created.metadata.name ?? '',
      );
      return conditionOf(current, 'Ready')?.status === 'True' ? current : undefined;
    },
    timeoutMs,
  );
  const liveChildren = await Promise.all(
    children.map((child) =>
      cluster.get(child.apiVersion, child.kind, sample.namespace, child.metadata.name ?? ''),
    ),
  );
  const [settled] = await render([
    ...args,
    '--instance',
    await tempFile('instance.json', [ready]),
    '--observed',
    await tempFile(
      'children.json',
      liveChildren.filter((child): child is KubeObject => child !== undefined),
    ),
  ]);
  expect(settled?.status).toEqual(ready.status);
  return { created, children };
}

/** The YAML stream `scoby render` prints for the sample's manifest itself, created in `namespace`. */
export function manifestStream(sample: GoldenSample, namespace: string): Promise<string> {
  const objects = sample.objects.flatMap((file) => ['--objects', file]);
  const args = ['--registration', sample.registration, '--crd', sample.crd, '--instance', sample.instance];
  return renderText([...args, ...objects, '-n', namespace], true);
}

/** The API server's answers to a dry-run create of every document of the manifest's stream. */
export async function acceptedStream(
  cluster: ClusterVerbs,
  sample: GoldenSample,
  namespace: string,
): Promise<{ kind: string; name: string; namespace: string | undefined }[]> {
  const answers: { kind: string; name: string; namespace: string | undefined }[] = [];
  for (const document of parseAllDocuments(await manifestStream(sample, namespace))) {
    const object = (document as { toJS(): unknown }).toJS() as KubeObject;
    const ref = await cluster.client.resourceFor(object.apiVersion, object.kind);
    if (!ref) throw new Error(`the cluster does not serve ${object.apiVersion} ${object.kind}`);
    const created = await cluster.client.request<KubeObject>(
      'POST',
      resourcePath(ref, object.metadata.namespace),
      {
        body: object,
        query: { dryRun: 'All' },
      },
    );
    answers.push({
      kind: created.kind,
      name: created.metadata.name ?? '',
      namespace: created.metadata.namespace,
    });
  }
  return answers;
}

/** What `scoby render` answers for a live instance and its live children: a status, or a failure line. */
export type RenderAnswer = { status: unknown } | { failure: string };

/**
 * `scoby render` of the instance as the cluster has it, with its live children as --observed (and
 * --hooks when the registration's hook is to be called): the status the controller would write now.
 */
export async function renderLive(input: {
  registration: KubeObject;
  crd: KubeObject;
  instance: KubeObject;
  observed: readonly KubeObject[];
  hooks?: boolean;
}): Promise<RenderAnswer> {
  const args = [
    'render',
    '--registration',
    await tempFile('registration.json', [input.registration]),
    '--crd',
    await tempFile('crd.json', [input.crd]),
    '--instance',
    await tempFile('instance.json', [input.instance]),
    ...(input.observed.length > 0 ? ['--observed', await tempFile('children.json', input.observed)] : []),
    ...(input.hooks ? ['--hooks'] : []),
  ];
  const recorded = recordingIo({ CLUSTER_DOMAIN: 'cluster.local' }, SAMPLES);
  const code = await runCli(args, recorded.io);
  if (code !== 0) return { failure: recorded.stderr() };
  const [instance] = parseAllDocuments(recorded.stdout()).map(
    (document) => (document as { toJS(): unknown }).toJS() as KubeObject,
  );
  return { status: instance?.status };
}

/** The children of `instance` among `kinds` on the cluster (with apiVersion and kind, as get returns them). */
export async function liveChildren(
  cluster: ClusterVerbs,
  instance: KubeObject,
  kinds: readonly (readonly [string, string])[],
): Promise<KubeObject[]> {
  const namespace = instance.metadata.namespace ?? '';
  const lists = await Promise.all(
    kinds.map(async ([apiVersion, kind]) =>
      (await cluster.list(apiVersion, kind, namespace)).map((item) => ({ ...item, apiVersion, kind })),
    ),
  );
  return lists
    .flat()
    .filter((object) =>
      object.metadata.ownerReferences?.some((reference) => reference.uid === instance.metadata.uid),
    );
}
