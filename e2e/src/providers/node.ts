/**
 * A Kubernetes node of the pinned release in one privileged container (the node image of
 * e2e/images, `npm run images`), started as @testcontainers/k3s starts k3s: privileged, the host's
 * cgroups, tmpfs /run. The host's images named in `preload` are imported into the node's containerd;
 * the cluster is handed over once the node is Ready and cluster DNS answers through its Service.
 * Scoby is installed on it by its Helm chart (global-setup.ts), so no account is prepared here.
 */
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { importImages, kubeconfigWithServer } from './container-images.ts';
import { installKnative, type NodeShell } from './knative.ts';
import { ADAPTER_IMAGE } from '../settings.ts';
import type { StartedCluster } from './started-cluster.ts';

const API_PORT = 6443;
const ADMIN_KUBECONFIG = '/etc/kubernetes/super-admin.conf';
const READY_LINE = 'scoby-node: ready';

class KubeNodeContainer extends GenericContainer {
  constructor(image: string, cpus: number | undefined, apiHostPort: number) {
    super(image);
    if (cpus !== undefined) this.withResourcesQuota({ cpu: cpus });
    // As K3sContainer does; dockerode's HostConfig type predates the field.
    Object.assign(this.hostConfig, { CgroupnsMode: 'host' });
    // A port of its own, not one the engine picks: the engine picks again when the container restarts,
    // and the suite's kubeconfig names this one.
    this.withExposedPorts({ container: API_PORT, host: apiHostPort })
      .withPrivilegedMode()
      .withBindMounts([{ source: '/sys/fs/cgroup', target: '/sys/fs/cgroup' }])
      .withTmpFs({ '/run': 'rw' })
      .withTmpFs({ '/var/run': 'rw' })
      .withWaitStrategy(Wait.forLogMessage(READY_LINE))
      .withStartupTimeout(300_000);
  }
}

/** A TCP port free on this machine's loopback now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no free port on 127.0.0.1');
  return address.port;
}

async function run(container: StartedTestContainer, command: string[], what: string): Promise<string> {
  const result = await container.exec(command);
  if (result.exitCode !== 0) throw new Error(`${what}: ${command.join(' ')}: ${result.output.trim()}`);
  return result.stdout;
}

const kubectl = (...args: string[]): string[] => ['kubectl', '--kubeconfig', ADMIN_KUBECONFIG, ...args];

/** Runs `command` in the node until `done` holds of its result; fails after `withinMs` with the last answer. */
async function until(
  container: StartedTestContainer,
  command: string[],
  what: string,
  withinMs: number,
  done: (result: { exitCode: number; output: string }) => boolean,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const result = await container.exec(command);
    if (done(result)) return;
    if (Date.now() > deadline)
      throw new Error(`${what} within ${withinMs / 1000} s: ${result.output.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The node registered and Ready, CoreDNS available, and a name resolved through the kube-dns Service
 * (kube-proxy's rules). `kubectl wait` answers "no matching resources" before the kubelet registers
 * its node, which takes a while on a busy machine.
 */
async function waitForNodeAndDns(container: StartedTestContainer): Promise<void> {
  await until(
    container,
    kubectl('get', 'nodes', '-o', 'name'),
    'node registered',
    300_000,
    (result) => result.exitCode === 0 && result.output.includes('node/'),
  );
  await run(
    container,
    kubectl('wait', '--for=condition=Ready', 'node', '--all', '--timeout=300s'),
    'node Ready',
  );
  await run(
    container,
    kubectl('-n', 'kube-system', 'rollout', 'status', 'deployment/coredns', '--timeout=300s'),
    'CoreDNS available',
  );
  await until(
    container,
    ['busybox', 'nslookup', 'kubernetes.default.svc.cluster.local', '10.96.0.10'],
    'cluster DNS answers',
    120_000,
    (result) => result.exitCode === 0 && result.output.includes('10.96.0.1'),
  );
}

/**
 * The machine as the node's pods reach it: the node's default gateway, the engine bridge's address on
 * this machine. Pods go out through the node's own NAT (the CNI's ipMasq) to its eth0, so a server of
 * the test process listening there is reached by the controller's pods.
 */
async function machineAddress(container: StartedTestContainer): Promise<string> {
  const route = await run(container, ['ip', '-4', 'route', 'show', 'default'], 'default route');
  const gateway = /^default via (\d+\.\d+\.\d+\.\d+)/m.exec(route)?.[1];
  if (gateway === undefined) throw new Error(`the node has no IPv4 default route: ${route.trim()}`);
  return gateway;
}

/**
 * The end of the node's own output (which names a component that exited, and the end of its log),
 * read from the engine: it is there after the container stopped, when nothing can run in it.
 */
async function containerOutput(container: StartedTestContainer, lines: number): Promise<string> {
  const stream = await container.logs({ tail: lines });
  const chunks: string[] = [];
  // A running container's log follows on: take what is there now (all of it once the ready line is).
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2000);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    stream.on('data', (chunk: string) => {
      chunks.push(chunk);
      if (chunk.includes(READY_LINE)) done();
    });
    stream.on('end', done);
    stream.on('error', done);
  });
  stream.destroy();
  return chunks.join('');
}

export interface NodeOptions {
  /**
   * A CPU quota (docker run --cpus) until the node says ready, then lifted: its start as on a machine
   * busy meanwhile, the rest of the way at the machine's pace.
   */
  startingCpus?: number;
  /** Knative Serving and its ingress installed once the node is Ready (its images in `preload`). */
  knative?: boolean;
}

function shellOf(container: StartedTestContainer): NodeShell {
  return {
    run: (command, what) => run(container, command, what),
    write: (content, target) => container.copyContentToContainer([{ content, target }]),
    kubectl,
  };
}

async function liftCpuQuota(container: StartedTestContainer): Promise<void> {
  const client = await getContainerRuntimeClient();
  await client.container.getById(container.getId()).update({ NanoCpus: availableParallelism() * 1e9 });
}

export async function startNodeCluster(
  image: string,
  preload: readonly string[],
  log: (line: string) => void,
  options: NodeOptions = {},
): Promise<StartedCluster> {
  const started = Date.now();
  const container = await new KubeNodeContainer(image, options.startingCpus, await freePort()).start();
  try {
    log(`node: ${image} answered in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (options.startingCpus !== undefined) {
      await liftCpuQuota(container);
      log(`node: its quota of ${options.startingCpus} CPU lifted`);
    }
    for (const line of (await containerOutput(container, 200)).split('\n')) {
      if (line.startsWith('scoby-node: ')) log(`node: ${line.slice('scoby-node: '.length)}`);
    }
    await importImages(container, preload, (archive) => ['ctr', '-n', 'k8s.io', 'images', 'import', archive]);
    log(`node: images imported after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The scenarios register ADAPTER_IMAGE (k3s's pause image) as their adapter; the node has the pause
    // program of its own release, which it runs under that name too.
    await run(
      container,
      [
        'sh',
        '-c',
        `ctr -n k8s.io images tag "$(ctr -n k8s.io images ls -q | grep '^scoby.local/pause:')" docker.io/${ADAPTER_IMAGE}`,
      ],
      'pause image as the adapter image',
    );
    await waitForNodeAndDns(container);
    log(
      `node: Ready with cluster DNS after ${((Date.now() - started) / 1000).toFixed(1)} s (images loaded: ${preload.join(', ') || 'none'})`,
    );
    const addressFromPods = await machineAddress(container);
    log(`node: pods reach this machine at ${addressFromPods} (the node's default gateway)`);
    if (options.knative === true) await installKnative(shellOf(container), (line) => log(`node: ${line}`));
    const inside = await run(container, ['cat', ADMIN_KUBECONFIG], 'admin kubeconfig');
    const kubeconfigYaml = kubeconfigWithServer(
      inside,
      `https://${container.getHost()}:${container.getMappedPort(API_PORT)}`,
    );
    return {
      provider: 'node',
      kubeconfigYaml,
      addressFromPods,
      nodeContainerId: container.getId(),
      stop: async () => void (await container.stop()),
    };
  } catch (error) {
    const output = await containerOutput(container, 60).catch((e: unknown) => `(unreadable: ${String(e)})`);
    log(`node: start failed; its output ends with:\n${output}`);
    const logs = await container
      .exec(['sh', '-c', 'tail -n 20 /var/log/scoby-node/*.log'])
      .catch(() => undefined);
    if (logs !== undefined) log(`node: its components' logs end with:\n${logs.output}`);
    await container.stop().catch(() => undefined);
    throw error;
  }
}
