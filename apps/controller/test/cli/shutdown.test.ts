/**
 * Shutdown always ends: after `scoby run --embedded` served API traffic, including a watch
 * and a half-sent request from a separate client, SIGTERM ends the process; so it does with an
 * instance parked in deletion; a reconcile stuck in a hook that never answers has its call cut at
 * half the grace period, so the stop ends within it, also with several registrations' hooks hanging
 * at once; a reconcile stuck on an API server that never answers cannot hold it past the grace
 * period (exit 1 then); a second signal exits at once. Started through npx, as a user starts it, and
 * stopped by a SIGTERM to npx alone, the process parked in deletion ends all the same.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig, Watch } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamicClient } from '@scoby/controller-runtime';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { crdManifest } from '@scoby/registration';
import {
  groupAlive,
  logLines,
  REPOSITORY,
  startScoby,
  type Finished,
  type Running,
} from './child-process.ts';
import { clusterVerbs, type ClusterVerbs } from '../support/cluster.ts';
import { waitForCondition } from '../support/scoby.ts';
import { registerExample, registrationReady } from '../support/hooks-fixtures.ts';
import { errorReply, NO_CHANGE, startScriptedHook } from '../support/hooks-server.ts';

async function eventually<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The process's exit, or a failure naming how long it still ran after it was told to stop. */
async function exitWithin(scoby: Running, ms: number): Promise<Finished> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after the stop`)), ms);
  });
  try {
    return await Promise.race([scoby.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A hook that accepts connections and never answers. */
async function silentHook(): Promise<{ url: string; server: Server; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, server, sockets };
}

interface Embedded {
  scoby: Running;
  kubeConfig: KubeConfig;
  client: DynamicClient;
}

/** `npx`: from the repository root through npx, as a user starts it, leading a process group. */
async function startEmbedded(
  dir: string,
  grace: string,
  launcher: 'node' | 'npx' = 'node',
): Promise<Embedded> {
  const kubeconfig = join(dir, 'kubeconfig');
  const scoby = startScoby(
    [
      'run',
      '--embedded',
      '--sample',
      '--kubeconfig-out',
      kubeconfig,
      '--metrics-bind-address',
      '127.0.0.1:0',
      '--graceful-shutdown-timeout',
      grace,
    ],
    launcher === 'npx'
      ? { cwd: REPOSITORY, npx: true, processGroup: true, env: { CLUSTER_DOMAIN: 'cluster.local' } }
      : { cwd: dir, env: { CLUSTER_DOMAIN: 'cluster.local' } },
  );
  running.push(scoby);
  await eventually('the sample reconciled', () =>
    logLines(scoby.stdout()).find((line) => line.msg === 'sample reconciled'),
  );
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfig);
  return { scoby, kubeConfig, client: new DynamicClient(kubeConfig) };
}

/** A Greeter whose registration calls a hook that never answers: its reconcile cannot finish. */
async function stuckReconcile({ client }: Embedded, hookUrl: string): Promise<void> {
  const registrations = await client.resourceFor('scoby.triggermesh.io/v1alpha1', 'CRDRegistration');
  const greeter = await client.get(registrations!, undefined, 'greeter');
  await client.apply(
    registrations!,
    {
      ...greeter,
      metadata: { name: 'greeter', uid: greeter.metadata.uid },
      spec: {
        ...(greeter.spec as Record<string, unknown>),
        hook: { version: 'v1', address: { uri: hookUrl }, timeout: 'PT10M', capabilities: ['pre-reconcile'] },
      },
    },
    'shutdown-test',
  );
}

/** Gives the registration `greeter` a hook at `hookUrl` with `capabilities`. */
async function hookRegistration(
  { client }: Embedded,
  hookUrl: string,
  capabilities: string[],
): Promise<void> {
  const registrations = await client.resourceFor('scoby.triggermesh.io/v1alpha1', 'CRDRegistration');
  const greeter = await client.get(registrations!, undefined, 'greeter');
  await client.apply(
    registrations!,
    {
      ...greeter,
      metadata: { name: 'greeter', uid: greeter.metadata.uid },
      spec: {
        ...(greeter.spec as Record<string, unknown>),
        hook: { version: 'v1', address: { uri: hookUrl }, capabilities },
      },
    },
    'shutdown-test',
  );
}

/** An in-memory API server with Scoby's CRD, and `scoby run` against it as the user `scoby`. */
interface Attached {
  server: InMemoryApiServer;
  verbs: ClusterVerbs;
  scoby: Running;
}

async function startAttached(
  grace: string,
  registrations: (verbs: ClusterVerbs) => Promise<string[]>,
): Promise<Attached> {
  const dir = await mkdtemp(join(tmpdir(), 'scoby-shutdown-'));
  const server = await startApiServer();
  servers.push(server);
  const verbs = clusterVerbs(new DynamicClient(server.kubeConfig()));
  await verbs.apply(crdManifest());
  for (const name of ['scoby-system', 'apps']) {
    await verbs.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  const names = await registrations(verbs);
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(kubeconfig, server.kubeConfig('scoby').exportConfig());
  const scoby = startScoby(
    [
      'run',
      '--kubeconfig',
      kubeconfig,
      '--no-leader-elect',
      '--metrics-bind-address',
      '127.0.0.1:0',
      '--api-request-timeout',
      '10m',
      '--graceful-shutdown-timeout',
      grace,
    ],
    { cwd: dir, env: { HOME: dir, SCOBY_NAMESPACE: 'scoby-system', CLUSTER_DOMAIN: 'cluster.local' } },
  );
  running.push(scoby);
  // Started through tsx on a loaded machine, the process may take longer than a Ready wait allows.
  await eventually('the controller started', () =>
    logLines(scoby.stdout()).find((line) => line.msg === 'scoby controller started'),
  );
  await Promise.all(names.map((name) => registrationReady(verbs, name, 'True')));
  return { server, verbs, scoby };
}

/** A CRD `<plural>.<plural>.example.com` with a registration of that name, hooked at `hookUrl` when given. */
async function register(
  verbs: ClusterVerbs,
  kind: string,
  plural: string,
  hookUrl?: string,
): Promise<string> {
  await registerExample(
    verbs,
    kind,
    plural,
    hookUrl === undefined
      ? undefined
      : { address: { uri: hookUrl }, capabilities: ['pre-reconcile'], timeout: 'PT10M' },
  );
  return plural;
}

function instanceOf(kind: string, plural: string, name: string) {
  return {
    apiVersion: `${plural}.example.com/v1`,
    kind,
    metadata: { name, namespace: 'apps' },
    spec: { owner: plural },
  };
}

const running: Running[] = [];
const servers: InMemoryApiServer[] = [];
afterEach(async () => {
  for (const scoby of running.splice(0)) {
    try {
      // Started through npx, the controller is npx's grandchild: its process group is killed.
      process.kill(scoby.child.spawnargs[0] === 'npx' ? -scoby.child.pid! : scoby.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const server of servers.splice(0)) await server.stop();
});

describe('scoby run shutdown', () => {
  it('ends on SIGTERM with client connections, a watch and a half-sent request still open', async () => {
    const embedded = await startEmbedded(await mkdtemp(join(tmpdir(), 'scoby-shutdown-')), '30s');
    const watched: string[] = [];
    const watch = await new Watch(embedded.kubeConfig).watch(
      '/api/v1/namespaces/default/configmaps',
      {},
      (type) => watched.push(type),
      () => undefined,
    );
    const server = new URL(embedded.kubeConfig.getCurrentCluster()!.server);
    const halfSent = connect(Number(server.port), server.hostname, () =>
      halfSent.write(
        'POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{',
      ),
    );
    halfSent.on('error', () => undefined);
    await embedded.client.list({ group: '', version: 'v1', resource: 'namespaces', namespaced: false });

    const stopping = Date.now();
    embedded.scoby.child.kill('SIGTERM');
    const finished = await embedded.scoby.exited;
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopping).toBeLessThan(20_000);
    expect(logLines(finished.stdout).map((line) => line.msg)).toContain('stopped');
    watch.abort();
    halfSent.destroy();
    embedded.client.close();
  }, 120_000);

  /** The sample's instance deleted and parked: its finalize hook refused for good, once. */
  async function parkedInDeletion(launcher: 'node' | 'npx') {
    const hook = await startScriptedHook((request) =>
      request.body.phase === 'finalize'
        ? errorReply(422, { message: 'the mailbox still holds mail', permanent: true })
        : NO_CHANGE(request),
    );
    const embedded = await startEmbedded(await mkdtemp(join(tmpdir(), 'scoby-shutdown-')), '10s', launcher);
    await hookRegistration(embedded, hook.url, ['finalize']);
    const greeters = (await embedded.client.resourceFor('samples.scoby.dev/v1alpha1', 'Greeter'))!;
    await eventually('the finalizer on the sample', async () => {
      const hello = await embedded.client.get(greeters, 'default', 'hello');
      return hello.metadata.finalizers?.includes('scoby.triggermesh.io/finalizer') ? true : undefined;
    });
    await embedded.client.delete(greeters, 'default', 'hello');
    await eventually('the finalize hook refused', () =>
      hook.callsFor('finalize').length > 0 ? true : undefined,
    );
    // Parked: the hook is not called again, the instance stays with its deletion timestamp.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(hook.callsFor('finalize')).toHaveLength(1);
    return { embedded, hook };
  }

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'ends on %s within the grace period with an instance parked in deletion',
    async (signal) => {
      const { embedded, hook } = await parkedInDeletion('node');
      const stopping = Date.now();
      embedded.scoby.child.kill(signal);
      const finished = await exitWithin(embedded.scoby, 10_000);
      expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
      expect(Date.now() - stopping).toBeLessThan(10_000);
      expect(logLines(finished.stdout).map((line) => line.msg)).toContain('stopped');
      // The stop leaves the parked instance as it was: no second finalize call.
      expect(hook.callsFor('finalize')).toHaveLength(1);
      embedded.client.close();
      await hook.close();
    },
    120_000,
  );

  it('started through npx, ends on a SIGTERM to npx alone with an instance parked in deletion', async () => {
    const { embedded, hook } = await parkedInDeletion('npx');
    const group = embedded.scoby.child.pid!;
    embedded.scoby.child.kill('SIGTERM');
    // npx itself exits at once (npm re-raises the signal); the controller must follow within the grace period.
    await eventually('the controller stopped', () => (groupAlive(group) ? undefined : true), 10_000);
    const lines = logLines(embedded.scoby.stdout());
    expect(lines.find((line) => line.msg.startsWith('shutting down'))).toMatchObject({
      signal: 'parent exited',
      gracePeriod: '10s',
    });
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped' });
    expect(hook.callsFor('finalize')).toHaveLength(1);
    embedded.client.close();
    await hook.close();
  }, 180_000);

  it('cuts hook calls still waiting at half the grace period and ends within it', async () => {
    const hook = await silentHook();
    const embedded = await startEmbedded(await mkdtemp(join(tmpdir(), 'scoby-shutdown-')), '4s');
    await stuckReconcile(embedded, hook.url);
    await eventually('the hook called', () => (hook.sockets.length > 0 ? true : undefined));

    const stopping = Date.now();
    embedded.scoby.child.kill('SIGTERM');
    const finished = await exitWithin(embedded.scoby, 4_000 + 2_000);
    const elapsed = Date.now() - stopping;
    // A graceful stop: the hook's call (ten minutes of timeout) is cut after 2 s, well within the 4 s.
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(4_000 + 2_000);
    const lines = logLines(finished.stdout);
    expect(lines.find((line) => line.msg.startsWith('shutting down'))).toMatchObject({
      level: 'info',
      signal: 'SIGTERM',
      gracePeriod: '4s',
      msg: 'shutting down: finishing in-flight reconciles (a second signal exits at once)',
    });
    expect(lines.map((line) => line.msg)).not.toContain(
      'graceful shutdown did not finish within the grace period: exiting anyway',
    );
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped' });
    embedded.client.close();
    for (const socket of hook.sockets) socket.destroy();
    hook.server.close();
  }, 120_000);

  it('exits at once on a second signal', async () => {
    const hook = await silentHook();
    const embedded = await startEmbedded(await mkdtemp(join(tmpdir(), 'scoby-shutdown-')), '10m');
    await stuckReconcile(embedded, hook.url);
    await eventually('the hook called', () => (hook.sockets.length > 0 ? true : undefined));

    embedded.scoby.child.kill('SIGTERM');
    await eventually('the shutdown line', () =>
      logLines(embedded.scoby.stdout()).find((line) => line.msg.startsWith('shutting down')),
    );
    const second = Date.now();
    embedded.scoby.child.kill('SIGINT');
    const finished = await embedded.scoby.exited;
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 1, signal: null });
    expect(Date.now() - second).toBeLessThan(10_000);
    expect(logLines(finished.stdout).at(-1)).toMatchObject({
      level: 'warn',
      signal: 'SIGINT',
      msg: 'second signal: exiting at once',
    });
    embedded.client.close();
    for (const socket of hook.sockets) socket.destroy();
    hook.server.close();
  }, 120_000);

  it("cuts the calls of several registrations' hanging hooks at once and ends within the grace period", async () => {
    const hook = await silentHook();
    const kinds = [
      ['Drum', 'drums'],
      ['Flute', 'flutes'],
      ['Harp', 'harps'],
    ] as const;
    const attached = await startAttached('4s', (verbs) =>
      Promise.all(kinds.map(([kind, plural]) => register(verbs, kind, plural, hook.url))),
    );
    for (const [kind, plural] of kinds) {
      for (const name of ['one', 'two']) await attached.verbs.apply(instanceOf(kind, plural, name));
    }
    await eventually('every instance waiting on the hook', () =>
      hook.sockets.length >= kinds.length * 2 ? true : undefined,
    );

    const stopping = Date.now();
    attached.scoby.child.kill('SIGTERM');
    const finished = await exitWithin(attached.scoby, 4_000 + 2_000);
    const elapsed = Date.now() - stopping;
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 0, signal: null });
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(4_000 + 2_000);
    const lines = logLines(finished.stdout);
    const aborted = lines.filter((line) => line.msg === 'reconcile aborted');
    expect(new Set(aborted.map((line) => line.registration))).toEqual(
      new Set(kinds.map(([, plural]) => plural)),
    );
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'stopped' });
    await attached.verbs.stop();
    for (const socket of hook.sockets) socket.destroy();
    hook.server.close();
  }, 120_000);

  it('exits 1 at the end of the grace period when a reconcile still waits on an API server that never answers', async () => {
    const attached = await startAttached('3s', async (verbs) => [await register(verbs, 'Crate', 'crates')]);
    await attached.verbs.apply(instanceOf('Crate', 'crates', 'first'));
    const first = { apiVersion: 'crates.example.com/v1', kind: 'Crate', namespace: 'apps', name: 'first' };
    await waitForCondition(attached.verbs, first, 'Ready', 'True');
    await attached.verbs.apply(instanceOf('Crate', 'crates', 'stuck'));
    // From now on every request waits ten minutes for its answer: the reconcile of `stuck`, which
    // the watch event of that create starts in the other process, waits on its first write.
    attached.server.faults.setLatency(600_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const stopping = Date.now();
    attached.scoby.child.kill('SIGTERM');
    const finished = await exitWithin(attached.scoby, 3_000 + 3_000);
    const elapsed = Date.now() - stopping;
    expect({ code: finished.code, signal: finished.signal }).toEqual({ code: 1, signal: null });
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
    expect(elapsed).toBeLessThan(3_000 + 3_000);
    const lines = logLines(finished.stdout);
    expect(lines.map((line) => line.msg)).not.toContain('stopped');
    expect(lines.some((line) => line.instance === 'apps/stuck')).toBe(false);
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      gracePeriod: '3s',
      msg: 'graceful shutdown did not finish within the grace period: exiting anyway',
    });
    await attached.verbs.stop();
  }, 120_000);
});
