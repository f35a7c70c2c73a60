/**
 * Statements of the documentation that were false when followed, each checked against what the code
 * and deploy/ do: the ports of the example hook and the ops server, the kubeconfig the quick start
 * exports, the grep of error log lines, and the RBAC the migration guide and troubleshooting describe.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { DynamicClient } from '@scoby/controller-runtime';
import { DEFAULT_PORT as EXAMPLE_HOOK_PORT } from '@scoby/example-hook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { codeBlocks, isShell, REPOSITORY } from './support/markdown.ts';
import { background, run, SCOBY, startEmbedded } from './support/scoby.ts';

const page = (path: string): Promise<string> => readFile(join(REPOSITORY, path), 'utf8');

describe('ports', () => {
  it("the example hook's default port is not the ops server's, and the docs say which it is", async () => {
    const help = await run(process.execPath, [SCOBY, 'run', '--help']);
    const opsPort = Number(/--metrics-bind-address[^\n]*\(default :(\d+)\)/.exec(help.stdout)?.[1]);
    expect(opsPort).toBe(8080);
    expect(EXAMPLE_HOOK_PORT).not.toBe(opsPort);
    for (const path of ['docs/hooks.md', 'README.md'])
      expect(await page(path)).toMatch(
        new RegExp(`example-hook\` serves it on port ${EXAMPLE_HOOK_PORT}\\b`),
      );
  });
});

describe('the quick start', () => {
  it('exports the kubeconfig that the command it shows writes, run from the clone', async () => {
    const blocks = codeBlocks('docs/quick-start.md').filter(isShell);
    const start = blocks.find((block) => block.body.includes('scoby run --embedded'));
    expect(start?.body).toMatch(/^npx scoby run --embedded --sample\b/m);
    const exported = blocks.flatMap((block) =>
      [...block.body.matchAll(/^export KUBECONFIG=(\S+)$/gm)].map((m) => m[1]),
    );
    expect(exported.length).toBe(1);
    const scoby = background(
      process.execPath,
      [SCOBY, 'run', '--embedded', '--metrics-bind-address', '127.0.0.1:0'],
      {
        cwd: REPOSITORY,
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    try {
      const line = await scoby.waitFor('kubeconfig written to ');
      const written = line
        .slice(line.indexOf('kubeconfig written to ') + 'kubeconfig written to '.length)
        .trim();
      expect(written).toBe(resolve(REPOSITORY, exported[0] ?? ''));
    } finally {
      await scoby.stop();
    }
  });
});

describe('the tutorial', () => {
  it('creates every namespace before it applies an object there (kubectl create namespace, or a Namespace manifest)', () => {
    const created = new Set<string>(['default']);
    for (const block of codeBlocks('docs/tutorial.md')) {
      if (isShell(block))
        for (const match of block.body.matchAll(/kubectl create namespace (\S+)/g))
          created.add(match[1] ?? '');
      if (block.lang !== 'yaml') continue;
      for (const document of parseAllDocuments(block.body)) {
        const object = document.toJS() as {
          kind?: string;
          metadata?: { name?: string; namespace?: string };
        } | null;
        if (object?.kind === 'Namespace' && object.metadata?.name !== undefined)
          created.add(object.metadata.name);
        const namespace = object?.metadata?.namespace;
        if (namespace !== undefined)
          expect({ line: block.line, namespace, created: created.has(namespace) }).toEqual({
            line: block.line,
            namespace,
            created: true,
          });
      }
    }
  });
});

describe("troubleshooting's grep for error log lines", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scoby-docs-grep-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("finds the controller's error lines in its JSON log, and only those", async () => {
    const block = codeBlocks('docs/operations/troubleshooting.md').find((candidate) =>
      candidate.body.includes('logs deployment/scoby-controller'),
    );
    const grep = /logs deployment\/scoby-controller \| (grep .*)$/m.exec(block?.body ?? '')?.[1];
    expect(grep).toBeDefined();

    const kubeconfig = join(dir, 'kubeconfig');
    const scoby = await startEmbedded({ cluster: 'memory', kubeconfig, cwd: dir });
    try {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromString(await readFile(kubeconfig, 'utf8'));
      const client = new DynamicClient(kubeConfig);
      const resource = await client.resourceFor('scoby.triggermesh.io/v1alpha1', 'CRDRegistration');
      // A registration of a CRD that does not exist: a Warning, and an error line in the log.
      await client.create(resource!, {
        apiVersion: 'scoby.triggermesh.io/v1alpha1',
        kind: 'CRDRegistration',
        metadata: { name: 'missing' },
        spec: { crd: 'missings.example.com', workload: { fromImage: { repo: 'registry.example.com/x:1' } } },
      });
      client.close();
      await scoby.waitFor('"msg":"registration not ready"');
    } finally {
      await scoby.stop();
    }
    const log = scoby.output();
    const errors = log
      .split('\n')
      .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: unknown }).level === 'error');
    expect(errors.length).toBeGreaterThan(0);
    const grepped = await run('bash', ['-c', grep ?? 'false'], { input: log });
    expect(grepped.stdout.split('\n').filter((line) => line !== '')).toEqual(errors);
  });
});

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

describe('RBAC, as deploy/10-rbac.yaml grants it', () => {
  let controllerRules: Rule[];
  beforeAll(async () => {
    const documents = parseAllDocuments(await page('deploy/10-rbac.yaml')).map(
      (document) => document.toJS() as { kind: string; metadata: { name: string }; rules?: Rule[] },
    );
    controllerRules =
      documents.find((object) => object.kind === 'ClusterRole' && object.metadata.name === 'scoby-controller')
        ?.rules ?? [];
  });
  const granted = (group: string, resource: string): string[] =>
    controllerRules
      .filter((rule) => rule.apiGroups.includes(group) && rule.resources.includes(resource))
      .flatMap((rule) => rule.verbs);
  const verbsOf = (cell: string): string[] =>
    (/`([a-z, ]+)`/.exec(cell)?.[1] ?? '').split(', ').filter(Boolean);

  it("the migration guide's table states the verbs of the scoby-controller ClusterRole", async () => {
    const rows = (await page('docs/migration.md'))
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const row = (what: string): string => rows.find((cells) => cells[1]?.startsWith(what))?.[3] ?? '';
    const children = row('children');
    expect(children).toContain('deploy/10-rbac.yaml');
    for (const [group, resource] of [
      ['apps', 'deployments'],
      ['', 'services'],
      ['serving.knative.dev', 'services'],
    ] as const)
      expect({ resource, verbs: verbsOf(children) }).toEqual({ resource, verbs: granted(group, resource) });
    expect(verbsOf(row('`selfsubjectaccessreviews'))).toEqual(
      granted('authorization.k8s.io', 'selfsubjectaccessreviews'),
    );
  });

  it('troubleshooting names the verbs the controller writes registered resources with', async () => {
    const migration = (await page('docs/migration.md'))
      .split('\n')
      .find((line) => line.startsWith('| registered resource'));
    // Every verb the cell names (`get, list, watch`, and `patch` or `update` ...).
    const instanceVerbs = [...(migration?.split('|')[3] ?? '').matchAll(/`([a-z, ]+)`/g)].flatMap((m) =>
      (m[1] ?? '').split(', '),
    );
    expect(instanceVerbs).toContain('patch');
    expect(instanceVerbs).toContain('update');
    // "missing `patch` permission", "missing `patch` or `update` permission".
    const named = [
      ...(await page('docs/operations/troubleshooting.md')).matchAll(
        /missing\s+((?:`[a-z]+`\s+(?:or\s+)?)+)permission/g,
      ),
    ].flatMap((m) => [...(m[1] ?? '').matchAll(/`([a-z]+)`/g)].map((verb) => verb[1]));
    expect(named.length).toBeGreaterThan(0);
    for (const verb of named) expect(instanceVerbs).toContain(verb);
  });
});

describe('samples of output', () => {
  // A sample pasted from a maintainer's terminal carried the machine's paths (/work/main/…, /root/…),
  // which a reader takes for where the files must be.
  it('name no path of the machine they were taken on', async () => {
    const { stdout } = await run('git', ['-C', REPOSITORY, 'ls-files', '*.md']);
    const machinePath = /(?<![\w.~-])\/(?:work|root)\/[\w.-]+/g;
    const found: string[] = [];
    for (const path of stdout.split('\n').filter(Boolean))
      for (const [index, line] of (await page(path)).split('\n').entries())
        for (const match of line.matchAll(machinePath)) found.push(`${path}:${index + 1}: ${match[0]}`);
    expect(found).toEqual([]);
  });
});
