/**
 * `scoby run --embedded` (the in-memory API server) started by a user's project, and the few verbs the
 * authoring tests drive it with, through the kubeconfig it writes.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { DynamicClient, type ResourceRef } from '@scoby/controller-runtime';
import { eventually } from '@scoby/controller-runtime/testing';
import type { KubeObject } from '@scoby/kube-objects';
import { parseAllDocuments } from 'yaml';
import { applyObjects } from '../../src/cli/run/apply-objects.ts';
import { lineOf, spawnNode } from './consumer.ts';

export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

export interface Embedded {
  applyFiles(files: string[]): Promise<void>;
  get(apiVersion: string, kind: string, namespace: string, name: string): Promise<KubeObject>;
  waitForCondition(
    kind: string,
    namespace: string,
    name: string,
    type: string,
    accept: (condition: Condition) => boolean,
  ): Promise<Condition>;
  delete(kind: string, namespace: string, name: string): Promise<void>;
  patchAnnotations(
    kind: string,
    namespace: string,
    name: string,
    annotations: Record<string, string | null>,
  ): Promise<void>;
  waitForGone(kind: string, namespace: string, name: string): Promise<void>;
  stop(): Promise<void>;
}

const GREETER = 'samples.scoby.dev/v1alpha1';
const WAIT_MS = 60_000;

/** `probe`'s first answer other than undefined, asked every 200 ms for a minute. */
function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  return eventually(
    async () => {
      const value = await probe();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    WAIT_MS,
    200,
  );
}

export async function startEmbedded(
  scoby: string,
  cwd: string,
  kubeconfig: string,
  args: string[],
): Promise<Embedded> {
  const controller = spawnNode(
    [
      scoby,
      'run',
      '--embedded',
      '--kubeconfig-out',
      kubeconfig,
      '--metrics-bind-address',
      '127.0.0.1:0',
      '--log-format',
      'json',
      ...args,
    ],
    cwd,
  );
  let stderr = '';
  controller.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(controller, 'exit');
  try {
    await lineOf(controller, (line) =>
      line.includes('"msg":"scoby controller started"') ? line : undefined,
    );
  } catch (error) {
    throw new Error(`${String(error)}\nstderr:\n${stderr}`);
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(await readFile(kubeconfig, 'utf8'));
  const client = new DynamicClient(kubeConfig);
  const resource = async (apiVersion: string, kind: string): Promise<ResourceRef> => {
    const ref = await client.resourceFor(apiVersion, kind);
    if (ref === undefined) throw new Error(`${kind} ${apiVersion} is not served`);
    return ref;
  };
  const conditions = async (kind: string, namespace: string, name: string): Promise<Condition[]> => {
    const object = await client.get(await resource(GREETER, kind), namespace, name);
    return (object.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
  };
  return {
    async applyFiles(files) {
      const objects: KubeObject[] = [];
      for (const file of files)
        for (const document of parseAllDocuments(await readFile(file, 'utf8')))
          if (document.contents !== null) objects.push(document.toJS() as KubeObject);
      await applyObjects(client, objects);
    },
    async get(apiVersion, kind, namespace, name) {
      return client.get(await resource(apiVersion, kind), namespace, name);
    },
    waitForCondition(kind, namespace, name, type, accept) {
      return until(`${kind} ${namespace}/${name} ${type}`, async () =>
        (await conditions(kind, namespace, name)).find(
          (condition) => condition.type === type && accept(condition),
        ),
      );
    },
    async delete(kind, namespace, name) {
      await client.delete(await resource(GREETER, kind), namespace, name);
    },
    async patchAnnotations(kind, namespace, name, annotations) {
      await client.patch(await resource(GREETER, kind), namespace, name, { metadata: { annotations } });
    },
    async waitForGone(kind, namespace, name) {
      await until(`${kind} ${namespace}/${name} to be gone`, async () => {
        try {
          await client.get(await resource(GREETER, kind), namespace, name);
          return undefined;
        } catch (error) {
          if ((error as { code?: number }).code === 404) return true;
          throw error;
        }
      });
    },
    async stop() {
      client.close();
      if (controller.exitCode === null) controller.kill('SIGTERM');
      await exited;
    },
  };
}
