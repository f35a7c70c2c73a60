/**
 * The program's bundle (scripts/bundle.mjs, what the image runs) keeps of client-node only the
 * modules the program uses, and they still do their job: a kubeconfig whose user is an exec
 * credential plugin authenticates the bundled program's requests. (The RSS this saves is a
 * benchmark's figure: BENCH_N=0 npm run bench, docs/operations/benchmarks.md.)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

let work: string;
let bundle: string;
let inputs: string[];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'scoby-bundle-'));
  // Below the package's folder, where the bundle finds its package.json.
  const outdir = join(PACKAGE_ROOT, 'dist', `bundle-test-${process.pid}`);
  bundle = join(outdir, 'scoby.mjs');
  const metafile = join(work, 'meta.json');
  cleanups.push(() => rm(outdir, { recursive: true, force: true }));
  const child = spawn(
    process.execPath,
    ['scripts/bundle.mjs', 'program', '--outdir', outdir, '--metafile', metafile],
    { cwd: PACKAGE_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
  const { outputs } = JSON.parse(await readFile(metafile, 'utf8')) as Metafile;
  inputs = Object.entries(outputs)
    .filter(([path]) => path.endsWith('.mjs'))
    .flatMap(([, output]) => Object.keys(output.inputs));
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

const clientNodeModules = () =>
  inputs
    .filter((path) => path.includes('node_modules/@kubernetes/client-node/dist/'))
    .map((path) => path.replace(/^.*node_modules\/@kubernetes\/client-node\/dist\//, ''))
    .sort();

describe('the bundled program', () => {
  it("keeps client-node's KubeConfig with its authenticators and request configuration, not its generated APIs and models", () => {
    expect([...new Set(clientNodeModules())]).toEqual([
      'azure_auth.js',
      'config.js',
      'config_types.js',
      'exec_auth.js',
      'file_auth.js',
      'gcp_auth.js',
      'gen/auth/auth.js',
      'gen/configuration.js',
      'gen/http/http.js',
      'gen/http/isomorphic-fetch.js',
      'gen/index.js',
      'gen/middleware.js',
      'gen/rxjsStub.js',
      'gen/servers.js',
      'oidc_auth.js',
      'types.js',
    ]);
  });

  it("keeps the proxy agents and OIDC client KubeConfig uses, and not whatwg-url's Unicode tables", () => {
    const packages = new Set(
      inputs.flatMap((path) => path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.slice(1) ?? []),
    );
    expect(
      ['socks-proxy-agent', 'hpagent', 'openid-client', 'node-fetch', 'js-yaml'].filter(
        (name) => !packages.has(name),
      ),
    ).toEqual([]);
    expect(['whatwg-url', 'tr46', 'punycode'].filter((name) => packages.has(name))).toEqual([]);
  });

  it("authenticates with the kubeconfig's exec credential plugin", async () => {
    const authorizations: (string | undefined)[] = [];
    const server = createServer((request: IncomingMessage, response) => {
      authorizations.push(request.headers.authorization);
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 403 }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const plugin = join(work, 'plugin.mjs');
    await writeFile(
      plugin,
      `console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'from-the-plugin' } }));\n`,
    );
    const kubeconfig = join(work, 'kubeconfig');
    await writeFile(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'c', cluster: { server: `http://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } },
        ],
        users: [
          {
            name: 'u',
            user: {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1',
                command: process.execPath,
                args: [plugin],
              },
            },
          },
        ],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const child = spawn(
      process.execPath,
      [
        bundle,
        'run',
        '--kubeconfig',
        kubeconfig,
        '--no-leader-elect',
        '--metrics-bind-address',
        '127.0.0.1:0',
      ],
      { env: { PATH: process.env.PATH ?? '', SCOBY_NAMESPACE: 'scoby-system' }, stdio: 'ignore' },
    );
    try {
      await expect.poll(() => authorizations.length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(authorizations[0]).toBe('Bearer from-the-plugin');
    } finally {
      child.kill('SIGKILL');
      server.close();
    }
  });
});
