import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { REPOSITORY, installConsumer, lineOf, node, packPackages, spawnNode } from './consumer.ts';

const PUBLISHED = [
  'address',
  'address-kubernetes',
  'controller',
  'controller-runtime',
  'env',
  'formfactor',
  'formfactor-deployment',
  'formfactor-ksvc',
  'hooks-v1',
  'in-memory-apiserver',
  'kube-control-plane',
  'kube-objects',
  'registration',
  'structural-schema',
];
const SCOBY_BIN = 'node_modules/.bin/scoby';
/** The image's ENTRYPOINT: `node <script in /app, the image's production install>`. */
const IMAGE_ENTRYPOINT = (await readFile(join(REPOSITORY, 'Dockerfile'), 'utf8'))
  .match(/^ENTRYPOINT \["node", "\/app\/([^"]+)"\]$/m)
  ?.at(1);

let work: string;
let consumer: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'scoby-packaging-'));
  consumer = join(work, 'consumer');
  await installConsumer(consumer, await packPackages(join(work, 'packages')));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the packed packages, installed for production', () => {
  it(`on Node ${process.version}: are the publishable packages, compiled JavaScript with declarations and the LICENSE, and need no TypeScript tooling`, async () => {
    const modules = await readdir(join(consumer, 'node_modules'));
    expect(modules.filter((name) => ['tsx', 'esbuild', 'typescript', 'vitest', 'nx'].includes(name))).toEqual(
      [],
    );
    expect(await readdir(join(consumer, 'node_modules/@scoby'))).toEqual(PUBLISHED);
    const license = await readFile(join(REPOSITORY, 'LICENSE'), 'utf8');
    for (const name of PUBLISHED) {
      const folder = join(consumer, 'node_modules/@scoby', name);
      const files = await filesUnder(folder);
      expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
      expect(files).toContain(join(folder, 'dist/index.js'));
      expect(files).toContain(join(folder, 'dist/index.d.ts'));
      expect(await readFile(join(folder, 'LICENSE'), 'utf8')).toBe(license);
    }
  });

  it('type-check a TypeScript user of the hook SDK, the form-factor contract and the registration types', async () => {
    const tsc = join(REPOSITORY, 'node_modules/typescript/bin/tsc');
    const options = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const types = [
      '--target',
      'es2022',
      '--typeRoots',
      join(REPOSITORY, 'node_modules/@types'),
      '--types',
      'node',
    ];
    expect(await node([tsc, ...options, ...types, 'types.ts'], consumer)).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it("run a user's hook and form-factor plugin with plain node through the scoby command", async () => {
    const hook = spawnNode(['hook.mjs'], consumer);
    try {
      const url = await lineOf(hook, (line) => (line.startsWith('http://') ? line : undefined));
      const registration = (await readFile(join(consumer, 'registration.yaml'), 'utf8')).replace(
        'HOOK_URL',
        url,
      );
      await writeFile(join(consumer, 'registration.yaml'), registration);
      const hookRequest = lineOf(hook, (line) => JSON.parse(line) as unknown);
      hookRequest.catch(() => undefined); // awaited below unless the render fails first

      const args = ['--registration', 'registration.yaml', '--instance', 'instance.yaml'];
      const plugin = ['--form-factor-plugin', './plugin.mjs', '--hooks', '--now', '2026-01-02T03:04:05Z'];
      const rendered = await node([SCOBY_BIN, 'render', ...args, ...plugin], consumer);

      expect(rendered).toMatchObject({ code: 0, stderr: '' });
      expect(await hookRequest).toEqual({ formFactor: 'pod', object: 'hello' });
      const documents = parseAllDocuments(rendered.stdout).map(
        (document) => document.toJS() as Record<string, unknown>,
      );
      const pod = documents.find((document) => document.kind === 'Pod');
      expect(pod).toEqual({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'greeter-hello',
          namespace: 'default',
          labels: {
            'app.kubernetes.io/name': 'greeter',
            'app.kubernetes.io/instance': 'hello',
            'app.kubernetes.io/component': 'workload',
            'app.kubernetes.io/part-of': 'scoby-component',
            'app.kubernetes.io/managed-by': 'scoby-controller',
          },
          ownerReferences: [
            {
              apiVersion: 'samples.scoby.dev/v1alpha1',
              kind: 'Greeter',
              name: 'hello',
              uid: '0f6e2c9a-4b1d-4e8f-9a3c-7d5b2e1f0a64',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
          annotations: {
            'example.com/hooked': 'true',
            'scoby.triggermesh.io/desired-hash': expect.stringMatching(/^[0-9a-f]{64}$/),
          },
        },
        spec: {
          containers: [
            {
              name: 'adapter',
              image: 'registry.example.com/samples/greeter:1.0.0',
              env: [{ name: 'GREETING', value: 'Hello from a packed Scoby' }],
              terminationMessagePolicy: 'FallbackToLogsOnError',
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
            },
          ],
          restartPolicy: 'Never',
        },
      });
      const instance = documents.find((document) => document.kind === 'Greeter') as
        { status: { conditions: { type: string }[] } } | undefined;
      expect(instance?.status.conditions.map((condition) => condition.type)).toEqual(['PodReady', 'Ready']);
    } finally {
      hook.kill('SIGTERM');
    }
  });

  it("runs the image's command: --help, and an embedded cluster with the sample until SIGTERM", async () => {
    expect(IMAGE_ENTRYPOINT).toBe('node_modules/@scoby/controller/dist/scoby.mjs');
    if (IMAGE_ENTRYPOINT === undefined) return;
    const help = await node([IMAGE_ENTRYPOINT, '--help'], consumer);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: scoby \[options\] \[command\]/);
    // The bundle finds its package's package.json, wherever esbuild put the module that reads it.
    expect(await node([IMAGE_ENTRYPOINT, '--version'], consumer)).toEqual({
      code: 0,
      stdout: '0.1.0\n',
      stderr: '',
    });

    const kubeconfig = join(work, 'kubeconfig');
    const controller = spawnNode(
      [
        IMAGE_ENTRYPOINT,
        'run',
        '--embedded',
        '--sample',
        '--kubeconfig-out',
        kubeconfig,
        '--metrics-bind-address',
        '127.0.0.1:0',
      ],
      consumer,
    );
    const exited = once(controller, 'exit');
    const reconciled = await lineOf(controller, (line) => {
      if (!line.startsWith('{')) return undefined;
      const entry = JSON.parse(line) as Record<string, unknown>;
      return entry.msg === 'sample reconciled' ? entry : undefined;
    });
    expect(reconciled).toMatchObject({
      instance: 'Greeter default/hello',
      children: ['Deployment default/greeter-hello', 'Service default/greeter-hello'],
      ready: { type: 'Ready', status: 'True', reason: 'CONDITIONSOK' },
    });
    const stopped = lineOf(controller, (line) => (line.includes('"msg":"stopped"') ? line : undefined));
    controller.kill('SIGTERM');
    await stopped;
    expect(await exited).toEqual([0, null]);
  });
});
