/**
 * Start-up failures of `scoby run`: an unreachable API server and a missing CRDRegistration CRD each
 * give one line per attempt saying what is wrong and what to do, five attempts in about 15 s, then
 * exit code 1; credentials that cannot be loaded (no kubeconfig, a missing file) give one line and
 * exit code 1 at once. No stack traces, no controller started.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterAll, describe, expect, it } from 'vitest';
import { scoby, type Finished } from './child-process.ts';

const ATTEMPTS = [
  '(attempt 1 of 5, retrying in 1s)',
  '(attempt 2 of 5, retrying in 2s)',
  '(attempt 3 of 5, retrying in 4s)',
  '(attempt 4 of 5, retrying in 8s)',
  '(attempt 5 of 5, giving up)',
];

function messages(finished: Finished): { level: unknown; msg: unknown }[] {
  return finished.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { level, msg } = JSON.parse(line) as Record<string, unknown>;
      return { level, msg };
    });
}

function expectFailedStart(finished: Finished, problem: string): void {
  expect({ code: finished.code, stderr: finished.stderr }).toEqual({ code: 1, stderr: '' });
  expect(messages(finished)).toEqual(
    ATTEMPTS.map((attempt) => ({ level: 'error', msg: `cannot start: ${problem} ${attempt}` })),
  );
}

/** One line and exit 1: a retry (1 s later, with its own line) would have said it again. */
function expectFinalFailure(finished: Finished, problem: string): void {
  expect({ code: finished.code, stderr: finished.stderr }).toEqual({ code: 1, stderr: '' });
  expect(messages(finished)).toEqual([{ level: 'error', msg: `cannot start: ${problem}` }]);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.concurrent('scoby run start-up checks', () => {
  let apiServer: InMemoryApiServer | undefined;
  afterAll(async () => {
    await apiServer?.stop();
  });
  const run = (dir: string, args: string[]) =>
    scoby(['run', '--metrics-bind-address', '127.0.0.1:0', ...args], {
      cwd: dir,
      env: { HOME: dir, SCOBY_NAMESPACE: 'scoby-system', CLUSTER_DOMAIN: 'cluster.local' },
    });

  it('says there are no credentials and what to do, once, without retrying', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-startup-'));
    const finished = await run(dir, []);
    expectFinalFailure(
      finished,
      `no usable cluster credentials: KUBECONFIG is not set, ${join(dir, '.kube', 'config')} does not exist, and this is not a Pod; pass --kubeconfig, set KUBECONFIG, or run in a Pod with a ServiceAccount`,
    );
  }, 90_000);

  it('says a --kubeconfig file is missing, once, without retrying', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-startup-'));
    const missing = join(dir, 'nowhere', 'kubeconfig');
    const finished = await run(dir, ['--kubeconfig', missing]);
    expectFinalFailure(
      finished,
      `no usable cluster credentials: ENOENT: no such file or directory, open '${missing}'; pass --kubeconfig, set KUBECONFIG, or run in a Pod with a ServiceAccount`,
    );
  }, 90_000);

  it('says the API server cannot be reached and what to check', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-startup-'));
    const port = await closedPort();
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "https://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]`,
        'users: [{name: u, user: {}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
      ].join('\n'),
    );
    const finished = await run(dir, ['--kubeconfig', kubeconfig]);
    expectFailedStart(
      finished,
      `cannot reach the API server at https://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}; check that the cluster is running and that the kubeconfig's server address is right`,
    );
  }, 90_000);

  it('says the CRDRegistration CRD is missing and how to install it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scoby-startup-'));
    apiServer = await startApiServer();
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(kubeconfig, apiServer.kubeconfigYaml());
    const finished = await run(dir, ['--kubeconfig', kubeconfig]);
    const server = apiServer.kubeconfigYaml().match(/server: "?([^"\s]+)/)?.[1];
    expectFailedStart(
      finished,
      `the CRDRegistration CRD is not installed in the cluster at ${server} (scoby.triggermesh.io/v1alpha1 is not served); install it with: scoby crds | kubectl apply -f -`,
    );
  }, 90_000);
});
