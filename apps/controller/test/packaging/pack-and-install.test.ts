import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { INSTALLED_SCOBY, REPOSITORY_SCOBY, compileGuideExamples } from './authoring.ts';
import {
  REPOSITORY,
  installConsumer,
  lineOf,
  node,
  packPackages,
  run,
  spawnNode,
  type Finished,
} from './consumer.ts';
import { startEmbedded } from './embedded.ts';
import { followGuide, type Journey } from './journeys.ts';
import { publishAll, startLocalRegistry, type LocalRegistry } from './registry.ts';

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
let tarballs: string[];
let registry: LocalRegistry | undefined;
let published: Finished[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'scoby-packaging-'));
  consumer = join(work, 'consumer');
  tarballs = await packPackages(join(work, 'packages'));
  await installConsumer(consumer, tarballs);
  registry = await startLocalRegistry(join(work, 'registry'));
  published = await publishAll(registry, tarballs, work);
});

afterAll(async () => {
  await registry?.stop();
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

  it('carry a package.json that names only files they ship, and a README that says how to install and use them', async () => {
    for (const name of PUBLISHED) {
      const folder = join(consumer, 'node_modules/@scoby', name);
      const text = await readFile(join(folder, 'package.json'), 'utf8');
      const manifest = JSON.parse(text) as Record<string, unknown>;
      expect({ name, sourceCondition: text.includes('@scoby/source') }).toEqual({
        name,
        sourceCondition: false,
      });
      expect({
        name,
        workspaceOnly: ['scripts', 'nx', 'devDependencies'].filter((key) => key in manifest),
      }).toEqual({
        name,
        workspaceOnly: [],
      });
      const targets = [manifest.exports, manifest.bin].flatMap(pathsIn);
      expect(targets.length).toBeGreaterThan(0);
      expect({ name, missing: targets.filter((target) => !existsSync(join(folder, target))) }).toEqual({
        name,
        missing: [],
      });
      const readme = await readFile(join(folder, 'README.md'), 'utf8');
      expect(readme.startsWith(`# @scoby/${name}\n`)).toBe(true);
      expect(readme).toContain(`npm install @scoby/${name}`);
      expect(readme).toMatch(/^```(ts|sh)$/m);
      // Links to files of the repository, which the package does not ship, lead to its web page.
      const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
      expect({ name, relative: links.filter((link) => !/^(https:\/\/|#)/.test(link)) }).toEqual({
        name,
        relative: [],
      });
    }
  });

  it("the TypeScript of every package's README type-checks under strict against the installed packages", async () => {
    const files: string[] = [];
    for (const name of PUBLISHED) {
      const readme = await readFile(join(consumer, 'node_modules/@scoby', name, 'README.md'), 'utf8');
      const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
      for (const [index, block] of blocks.entries()) {
        const file = `readme-${name}-${index}.ts`;
        await writeFile(join(consumer, file), block);
        files.push(file);
      }
    }
    expect(files.length).toBeGreaterThanOrEqual(PUBLISHED.length - 1);
    const tsc = join(REPOSITORY, 'node_modules/typescript/bin/tsc');
    // Declarations of third-party dependencies (client-node's isomorphic-ws needs @types/ws) are not
    // the READMEs' to check, as in a project made with `tsc --init`.
    const options = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
    ];
    const types = ['--typeRoots', join(REPOSITORY, 'node_modules/@types'), '--types', 'node'];
    expect(await node([tsc, ...options, ...types, ...files], consumer)).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
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
    // npm scripts of the repository do not exist where the package is installed.
    const runHelp = await node([IMAGE_ENTRYPOINT, 'run', '--help'], consumer);
    expect(runHelp).toMatchObject({ code: 0, stderr: '' });
    expect(runHelp.stdout.match(/.*npm run.*/g)).toBeNull();
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

/** Every file path a package.json's `exports` or `bin` names. */
function pathsIn(value: unknown): string[] {
  if (typeof value === 'string') return value.startsWith('./') || !value.includes(':') ? [value] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(pathsIn);
}

const SCOBYS = [
  ['the repository', REPOSITORY_SCOBY],
  ['the installed', INSTALLED_SCOBY],
] as const;
const WORKER_PLUGIN = './dist/plugins/worker.js';

describe('a plugin and a hook written from the guides, in an empty project, on the packed packages', () => {
  beforeAll(async () => {
    expect(await compileGuideExamples(consumer)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it("the hooks guide's test of its handler passes, with plain node", async () => {
    expect(await node(['dist/hooks/check.js'], consumer)).toEqual({
      code: 0,
      stdout: 'the hook answers as Scoby expects\n',
      stderr: '',
    });
  });

  for (const [which, scoby] of SCOBYS) {
    it(`${which} scoby validates and renders a registration of the plugins guide's worker form factor`, async () => {
      const registration = join(REPOSITORY, 'docs/examples/plugins/worker-registration.yaml');
      expect(
        await node([scoby, 'validate', registration, '--form-factor-plugin', WORKER_PLUGIN], consumer),
      ).toEqual({
        code: 0,
        stdout: 'CRDRegistration "greeter" is valid\n',
        stderr: '',
      });
      const rendered = await node(
        [
          scoby,
          'render',
          ...['--registration', registration, '--instance', 'instance.yaml'],
          ...['--form-factor-plugin', WORKER_PLUGIN, '-o', 'json', '--now', '2026-01-02T03:04:05Z'],
        ],
        consumer,
      );
      expect(rendered).toMatchObject({ code: 0, stderr: '' });
      const { children } = JSON.parse(rendered.stdout) as {
        children: Record<string, Record<string, unknown>>;
      };
      expect(Object.keys(children)).toEqual(['worker']);
      expect(children.worker).toMatchObject({
        kind: 'Deployment',
        metadata: { name: 'greeter-hello', namespace: 'default' },
        spec: { replicas: 2, template: { spec: { containers: [{ name: 'adapter' }] } } },
      });
    });

    it(`${which} scoby runs the plugin on the embedded cluster: an instance gets its worker Deployment and is Ready`, async () => {
      const embedded = await startEmbedded(
        scoby,
        consumer,
        join(work, `kubeconfig-plugin-${SCOBYS.findIndex(([w]) => w === which)}`),
        ['--form-factor-plugin', WORKER_PLUGIN],
      );
      try {
        await embedded.applyFiles([
          join(REPOSITORY, 'apps/controller/samples/greeter-crd.yaml'),
          join(REPOSITORY, 'apps/controller/samples/greeter-clusterrole.yaml'),
          join(REPOSITORY, 'docs/examples/plugins/worker-registration.yaml'),
          join(REPOSITORY, 'apps/controller/samples/greeter-instance.yaml'),
        ]);
        const ready = await embedded.waitForCondition(
          'Greeter',
          'default',
          'hello',
          'Ready',
          (c) => c.status === 'True',
        );
        expect(ready.reason).toBe('CONDITIONSOK');
        expect(
          await embedded.waitForCondition('Greeter', 'default', 'hello', 'WorkerReady', () => true),
        ).toMatchObject({
          status: 'True',
          reason: 'WorkersAvailable',
        });
        const worker = await embedded.get('apps/v1', 'Deployment', 'default', 'greeter-hello');
        expect(worker.spec).toMatchObject({
          replicas: 2,
          template: { spec: { containers: [{ image: 'registry.example.com/samples/greeter:1.0.0' }] } },
        });
      } finally {
        await embedded.stop();
      }
    });
  }

  it("the hooks guide's server is reached by a registration on the embedded cluster: its finalize holds a deletion, then lets it go", async () => {
    const hook = spawnNode(['dist/hooks/server.js'], consumer, { PORT: '0', HOST: '127.0.0.1' });
    const embedded = await startEmbedded(REPOSITORY_SCOBY, consumer, join(work, 'kubeconfig-hook'), []);
    try {
      const url = await lineOf(
        hook,
        (line) => line.match(/^hook listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/)?.[1],
      );
      const registration = (
        await readFile(join(REPOSITORY, 'apps/controller/samples/greeter-registration.yaml'), 'utf8')
      ).replace(
        /^spec:\n/m,
        `spec:\n  hook:\n    version: v1\n    address: {uri: '${url}'}\n    capabilities: [pre-reconcile, finalize]\n`,
      );
      await writeFile(join(work, 'hooked-registration.yaml'), registration);
      const instance = (
        await readFile(join(REPOSITORY, 'apps/controller/samples/greeter-instance.yaml'), 'utf8')
      ).replace(/^metadata:\n/m, "metadata:\n  annotations: {example.com/hold-deletion: 'true'}\n");
      await writeFile(join(work, 'held-instance.yaml'), instance);
      await embedded.applyFiles([
        join(REPOSITORY, 'apps/controller/samples/greeter-crd.yaml'),
        join(REPOSITORY, 'apps/controller/samples/greeter-clusterrole.yaml'),
        join(work, 'hooked-registration.yaml'),
        join(work, 'held-instance.yaml'),
      ]);
      await embedded.waitForCondition('Greeter', 'default', 'hello', 'Ready', (c) => c.status === 'True');
      await embedded.delete('Greeter', 'default', 'hello');
      const held = await embedded.waitForCondition(
        'Greeter',
        'default',
        'hello',
        'Ready',
        (c) => c.reason === 'HookFailed',
      );
      expect(held).toMatchObject({ status: 'False', reason: 'HookFailed' });
      expect(held.message).toContain('external resources still being released');
      await embedded.patchAnnotations('Greeter', 'default', 'hello', { 'example.com/hold-deletion': null });
      await embedded.waitForGone('Greeter', 'default', 'hello');
    } finally {
      hook.kill('SIGTERM');
      await embedded.stop();
    }
  });
});

/** A file of a packed package, as npm publish sends it. */
async function packedFile(tarball: string, file: string): Promise<string> {
  const { code, stdout, stderr } = await run('tar', ['-xzOf', tarball, `package/${file}`], work);
  if (code !== 0) throw new Error(`${tarball}: ${file}: ${stderr}`);
  return stdout;
}

describe('published with npm publish to a local registry', () => {
  it("every publishable package, as packed: its workspace's version, exports, types, repository and README", async () => {
    expect(published.map((finished) => finished.code)).toEqual(PUBLISHED.map(() => 0));
    if (registry === undefined) return;
    const fields = [
      'name',
      'version',
      'exports',
      'types',
      'bin',
      'files',
      'repository',
      'dependencies',
      'engines',
    ];
    const names: string[] = [];
    for (const tarball of tarballs) {
      const packed = JSON.parse(await packedFile(tarball, 'package.json')) as Record<string, unknown>;
      const name = String(packed.name);
      names.push(name);
      const folder = join(
        REPOSITORY,
        name === '@scoby/controller' ? 'apps' : 'packages',
        name.slice('@scoby/'.length),
      );
      const workspace = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect({ name, version: packed.version, repository: packed.repository }).toEqual({
        name,
        version: workspace.version,
        repository: workspace.repository,
      });
      const packument = await registry.packument(name);
      expect(packument['dist-tags']).toEqual({ latest: workspace.version });
      const manifest =
        (packument.versions as Record<string, Record<string, unknown>>)[String(workspace.version)] ?? {};
      expect(Object.fromEntries(fields.map((field) => [field, manifest[field]]))).toEqual(
        Object.fromEntries(fields.map((field) => [field, packed[field]])),
      );
      expect(packument.readme).toBe(await packedFile(tarball, 'README.md'));
    }
    expect(names.sort()).toEqual(PUBLISHED.map((name) => `@scoby/${name}`));
  });
});

const GUIDE_JOURNEYS = [
  { page: 'docs/hooks.md', project: 'ES module', omitLines: [] },
  { page: 'docs/plugins.md', project: 'ES module', omitLines: [] },
  { page: 'docs/plugins.md', project: 'CommonJS', omitLines: ['npm pkg set type=module'] },
] as const;

/** What a failing journey shows: each step's commands and, for the failing one, its output. */
function outline(journey: Journey): { at: string; code: number | null; output?: string }[] {
  return [...journey.steps, ...journey.background].map(({ at, finished }) =>
    finished.code === 0
      ? { at, code: 0 }
      : { at, code: finished.code, output: finished.stderr + finished.stdout },
  );
}

describe("the guides' projects of your own, in an empty folder outside the repository, installed from the local registry", () => {
  for (const { page, project, omitLines } of GUIDE_JOURNEYS) {
    it(`${page}, as ${project === 'CommonJS' ? 'a CommonJS project (without `npm pkg set type=module`)' : 'written (an ES module project)'}`, async () => {
      if (registry === undefined) throw new Error('the local registry did not start');
      const folder = await mkdtemp(join(tmpdir(), 'scoby-guide-'));
      try {
        const journey = await followGuide(page, folder, registry.env, { omitLines });
        expect(outline(journey).filter((step) => step.code !== 0)).toEqual([]);
        const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Record<
          string,
          unknown
        >;
        // npm 11's `npm init -y` writes "type": "commonjs"; npm 10's writes no type, which means the same.
        expect(manifest.type ?? 'commonjs').toBe(project === 'CommonJS' ? 'commonjs' : 'module');
        const lock = JSON.parse(await readFile(join(folder, 'package-lock.json'), 'utf8')) as {
          packages: Record<string, { resolved?: string }>;
        };
        const scoby = Object.entries(lock.packages).filter(([path]) =>
          path.startsWith('node_modules/@scoby/'),
        );
        expect(scoby.length).toBeGreaterThan(0);
        expect(scoby.filter(([, entry]) => !entry.resolved?.startsWith(registry!.url))).toEqual([]);
        const output = journey.steps.map((step) => step.finished.stdout).join('');
        if (page === 'docs/hooks.md') {
          expect(output).toContain('the hook answers as Scoby expects\n');
          expect(journey.background.map((step) => step.finished.stdout)).toEqual([
            'hook listening on http://0.0.0.0:8081/v1\n',
          ]);
        } else {
          const worker = await readFile(join(folder, 'dist/worker.js'), 'utf8');
          expect(worker.includes('exports.default =')).toBe(project === 'CommonJS');
          expect(output).toContain('CRDRegistration "greeter" is valid\n');
          expect(output).toMatch(/^kind: Deployment$/m);
          expect(journey.background.map((step) => step.finished.stdout)).toEqual([
            expect.stringContaining('scoby controller started'),
          ]);
        }
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });
  }
});
