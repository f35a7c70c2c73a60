/**
 * A real Kubernetes control plane on loopback, like a cluster rather than envtest: etcd and
 * kube-apiserver over mutual TLS, service-account tokens signed by a key of their own, RBAC
 * authorization, kube-controller-manager (garbage collector, namespaces, Deployments, ReplicaSets,
 * StatefulSets, ServiceAccounts, ClusterRole aggregation), kube-scheduler, and kwok playing the kubelet of
 * a few fake nodes, so Deployments really become Available. Ports are chosen by the kernel; every process
 * is stopped by PID, also when the test runner is killed.
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient, healthy } from './admin-client.ts';
import { auditFlags, type AuditedBodies } from './audit-policy.ts';
import { KWOK_STAGES_FILE, locateBinaries } from './binaries.ts';
import { Component } from './component.ts';
import { fakeNode, isSchedulableNode, KWOK_NODE_ANNOTATION } from './fake-nodes.ts';
import { kubeconfigYaml } from './kubeconfig.ts';
import { createClusterPki, type ClusterPki } from './pki.ts';
import { freePorts } from './ports.ts';
import { Reaper } from './reaper.ts';

export interface ControlPlaneOptions {
  /** Folder holding the binaries (default: KUBEBUILDER_ASSETS or the `npm run kube-binaries` cache). */
  binariesFolder?: string;
  /** Fake nodes kwok runs pods on. Default 2. */
  nodes?: number;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Keep the temporary folder (certificates, etcd data, component logs) after stop. */
  keepWorkDir?: boolean;
  /** Per-component start timeout. Default 90 s (two cores, cold page cache). */
  startTimeoutMs?: number;
  /**
   * Client-side rate limit (requests per second, burst twice that) of kube-controller-manager and
   * kube-scheduler. Their defaults (20 and 50) bound how fast thousands of Deployments become
   * Available; large clusters raise them, and so does a benchmark that measures the controllers above.
   */
  kubeApiQps?: number;
  /** Writes the audit log keeps with the object answered (audit-policy.ts); default none. */
  auditBodies?: readonly AuditedBodies[];
  /** kube-apiserver's settings at start; reconfigureApiServer() changes them. */
  apiServer?: ApiServerSettings;
}

/** kube-apiserver flags that fault tests change. */
export interface ApiServerSettings {
  /**
   * The watch cache (default on). Off, every watch reads etcd: a watch resumed from a revision etcd
   * compacted is answered 410 Gone, and informers must list again.
   */
  watchCache?: boolean;
  /** How often kube-apiserver compacts etcd's history (--etcd-compaction-interval; its default: 300 s). */
  etcdCompactionIntervalSeconds?: number;
}

/** The processes a fault test can act on. */
export type ComponentName = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kwok';

/** One process of the control plane, for fault tests. */
export interface ControlPlaneComponent {
  readonly name: ComponentName;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** SIGKILL, as a crash or an OOM kill; resolves once the process has exited. */
  kill(): Promise<void>;
  /** Starts it again with the same flags, ports, data directory and certificates; resolves once it is ready. */
  start(): Promise<void>;
  /** kill(), then start(). */
  restart(): Promise<void>;
  /** SIGSTOP: it keeps its sockets and answers nothing, as a frozen host. */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

export interface ControlPlane {
  /** https://127.0.0.1:PORT */
  readonly server: string;
  /** Admin (system:masters) kubeconfig, credentials inline. */
  readonly kubeconfigYaml: string;
  /** The same kubeconfig as a file. */
  readonly kubeconfigPath: string;
  /** Certificates, etcd data and one log file per component. */
  readonly workDir: string;
  readonly startupMs: number;
  /** PIDs of the processes it runs now. */
  readonly pids: readonly number[];
  /**
   * kube-apiserver's JSON audit log (read it with readAuditLog): the requests of the ServiceAccounts
   * of namespace `scoby-ha` (AUDITED_NAMESPACE) at level Metadata, and no one else's.
   */
  readonly auditLogPath: string;
  /**
   * A kubeconfig for a ServiceAccount (created when missing) with a token from the TokenRequest API,
   * so a program runs with exactly the permissions RBAC gives that account.
   */
  serviceAccountKubeconfig(namespace: string, name: string): Promise<string>;
  /** One of its processes, to kill and start again, or pause and resume. */
  component(name: ComponentName): ControlPlaneComponent;
  /** kube-apiserver killed and started again with these settings (the others as they were); resolves once it is ready. */
  reconfigureApiServer(settings: ApiServerSettings): Promise<void>;
  stop(): Promise<void>;
}

const CONTROLLERS = [
  'garbage-collector-controller',
  'namespace-controller',
  'deployment-controller',
  'replicaset-controller',
  'statefulset-controller',
  'serviceaccount-controller',
  'clusterrole-aggregation-controller',
  // Writes a ResourceQuota's status; kube-apiserver enforces no quota whose status.hard is empty.
  'resourcequota-controller',
  // Removes the not-ready taint the TaintNodesByCondition admission puts on every new node.
  'node-lifecycle-controller',
  'root-ca-certificate-publisher-controller',
];

function etcdArgs(dir: string, pki: ClusterPki, clientPort: number, peerPort: number): string[] {
  const peer = `http://127.0.0.1:${peerPort}`;
  return [
    '--name=default',
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=https://127.0.0.1:${clientPort}`,
    `--advertise-client-urls=https://127.0.0.1:${clientPort}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--client-cert-auth',
    `--trusted-ca-file=${pki.caFile}`,
    `--cert-file=${pki.etcdServer.certFile}`,
    `--key-file=${pki.etcdServer.keyFile}`,
    // A throw-away cluster: durability costs seconds per test run on a slow disk.
    '--unsafe-no-fsync',
    '--log-level=warn',
  ];
}

function apiServerArgs(
  pki: ClusterPki,
  etcdPort: number,
  port: number,
  audit: string[],
  settings: ApiServerSettings,
): string[] {
  return [
    ...audit,
    ...(settings.watchCache === false ? ['--watch-cache=false'] : []),
    ...(settings.etcdCompactionIntervalSeconds === undefined
      ? []
      : [`--etcd-compaction-interval=${settings.etcdCompactionIntervalSeconds}s`]),
    `--etcd-servers=https://127.0.0.1:${etcdPort}`,
    `--etcd-cafile=${pki.caFile}`,
    `--etcd-certfile=${pki.apiServerEtcdClient.certFile}`,
    `--etcd-keyfile=${pki.apiServerEtcdClient.keyFile}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${port}`,
    `--tls-cert-file=${pki.apiServerServing.certFile}`,
    `--tls-private-key-file=${pki.apiServerServing.keyFile}`,
    `--client-ca-file=${pki.caFile}`,
    // Published to kube-system for the other components' delegated authentication, as kubeadm does.
    `--requestheader-client-ca-file=${pki.caFile}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--authorization-mode=RBAC',
    '--anonymous-auth=false',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    '--allow-privileged=true',
    // One apiserver, no endpoints to reconcile (as envtest).
    '--endpoint-reconciler-type=none',
    '--profiling=false',
  ];
}

function componentKubeconfig(
  server: string,
  pki: ClusterPki,
  user: string,
  cert: ClusterPki['admin'],
): string {
  return kubeconfigYaml(server, pki.caFile, user, cert);
}

export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const timeoutMs = options.startTimeoutMs ?? 90_000;
  let folder = options.binariesFolder;
  if (folder === undefined) {
    const located = locateBinaries();
    if (!located.ok) throw new Error(located.message);
    folder = located.folder;
  }
  const bin = (name: string): string => join(folder, name);
  const workDir = await mkdtemp(join(tmpdir(), 'scoby-kube-'));
  const pkiDir = join(workDir, 'pki');
  await mkdir(pkiDir);
  const components: Component[] = [];
  const reaper = new Reaper(join(workDir, 'pids'));
  const killOnExit = (): void => components.forEach((component) => component.killNow());
  process.once('exit', killOnExit);
  const launch = (name: ComponentName, args: string[]): Component => {
    const component = new Component(name, bin(name), args, join(workDir, `${name}.log`), (pid) =>
      reaper.watch(pid),
    );
    components.push(component);
    return component;
  };
  let admin: AdminClient | undefined;

  let stop = async (): Promise<void> => {
    admin?.close();
    // Reverse order: the API server outlives its clients, etcd outlives the API server.
    for (const component of [...components].reverse()) await component.stop();
    process.removeListener('exit', killOnExit);
    reaper.dismiss();
    if (!options.keepWorkDir) await rm(workDir, { recursive: true, force: true });
  };

  try {
    const [etcdPort, peerPort, apiPort, managerPort, schedulerPort, kwokPort] = await freePorts(6);
    const pki = await createClusterPki(pkiDir);
    const server = `https://127.0.0.1:${apiPort}`;
    log(`starting etcd on 127.0.0.1:${etcdPort}`);
    const etcd = launch('etcd', etcdArgs(workDir, pki, etcdPort!, peerPort!));
    log(`starting kube-apiserver on ${server}`);
    const auditLogPath = join(workDir, 'audit.log');
    const audit = await auditFlags(
      { policyPath: join(workDir, 'audit-policy.yaml'), logPath: auditLogPath },
      options.auditBodies,
    );
    let apiServerSettings: ApiServerSettings = options.apiServer ?? {};
    const apiServer = launch(
      'kube-apiserver',
      apiServerArgs(pki, etcdPort!, apiPort!, audit, apiServerSettings),
    );
    admin = new AdminClient(server, { caFile: pki.caFile, ...pki.admin });
    const client = admin;
    await apiServer.waitUntil(
      'ready',
      async () => {
        etcd.assertRunning();
        return (await client.request('GET', '/readyz')).code === 200;
      },
      timeoutMs,
    );

    const kubeconfigs: Record<string, string> = {};
    for (const [name, user, cert] of [
      ['admin', 'kubernetes-admin', pki.admin],
      ['kube-controller-manager', 'system:kube-controller-manager', pki.controllerManager],
      ['kube-scheduler', 'system:kube-scheduler', pki.scheduler],
      ['kwok', 'kwok', pki.kwok],
    ] as const) {
      const path = join(workDir, `${name}.kubeconfig`);
      kubeconfigs[name] = path;
      await writeFile(path, componentKubeconfig(server, pki, user, cert), { mode: 0o600 });
    }

    log('starting kube-controller-manager, kube-scheduler and kwok');
    const rateLimit =
      options.kubeApiQps === undefined
        ? []
        : [`--kube-api-qps=${options.kubeApiQps}`, `--kube-api-burst=${options.kubeApiQps * 2}`];
    const manager = launch('kube-controller-manager', [
      `--kubeconfig=${kubeconfigs['kube-controller-manager']}`,
      `--authentication-kubeconfig=${kubeconfigs['kube-controller-manager']}`,
      `--authorization-kubeconfig=${kubeconfigs['kube-controller-manager']}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${managerPort}`,
      '--leader-elect=false',
      `--controllers=${CONTROLLERS.join(',')}`,
      // Each controller acts as its own ServiceAccount, with the bootstrap roles, as on a real cluster.
      '--use-service-account-credentials=true',
      `--service-account-private-key-file=${pki.serviceAccountKeyFile}`,
      `--root-ca-file=${pki.caFile}`,
      '--profiling=false',
      ...rateLimit,
    ]);
    const scheduler = launch('kube-scheduler', [
      `--kubeconfig=${kubeconfigs['kube-scheduler']}`,
      `--authentication-kubeconfig=${kubeconfigs['kube-scheduler']}`,
      `--authorization-kubeconfig=${kubeconfigs['kube-scheduler']}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${schedulerPort}`,
      '--leader-elect=false',
      '--profiling=false',
      ...rateLimit,
    ]);
    const kwok = launch('kwok', [
      `--kubeconfig=${kubeconfigs.kwok}`,
      `--config=${bin(KWOK_STAGES_FILE)}`,
      '--manage-all-nodes=false',
      `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
      `--server-address=127.0.0.1:${kwokPort}`,
      '--cidr=10.244.0.1/16',
      '--node-ip=10.0.0.1',
      // kwok renews node Leases, which the node lifecycle controller reads as the kubelets' heartbeat.
      '--node-lease-duration-seconds=40',
    ]);

    const nodeNames = Array.from({ length: options.nodes ?? 2 }, (_, index) => `kwok-node-${index}`);
    for (const name of nodeNames) await client.ensure('/api/v1/nodes', fakeNode(name));
    await kwok.waitUntil(
      'ready (its nodes Ready and schedulable)',
      async () => {
        manager.assertRunning();
        const { body } = await client.request('GET', '/api/v1/nodes');
        const ready = ((body as { items?: unknown[] }).items ?? []).filter(isSchedulableNode);
        return ready.length >= nodeNames.length;
      },
      timeoutMs,
    );
    // The serviceaccount controller creates "default" in every namespace; pods need it to be admitted.
    await manager.waitUntil(
      'ready (the default ServiceAccount exists)',
      async () =>
        (await client.request('GET', '/api/v1/namespaces/default/serviceaccounts/default')).code === 200,
      timeoutMs,
    );
    await manager.waitUntil('healthy', () => healthy(managerPort!), timeoutMs);
    await scheduler.waitUntil('healthy', () => healthy(schedulerPort!), timeoutMs);

    // etcd's own health (https, the API server's etcd client certificate): its start does not wait for the API server.
    const etcdClient = new AdminClient(`https://127.0.0.1:${etcdPort}`, {
      caFile: pki.caFile,
      ...pki.apiServerEtcdClient,
    });
    const readiness: Record<ComponentName, () => Promise<boolean>> = {
      etcd: async () => (await etcdClient.request('GET', '/health')).code === 200,
      'kube-apiserver': async () => (await client.request('GET', '/readyz')).code === 200,
      'kube-controller-manager': () => healthy(managerPort!),
      'kube-scheduler': () => healthy(schedulerPort!),
      kwok: async () => true,
    };
    const byName = new Map(components.map((component) => [component.name as ComponentName, component]));
    const startAgain = async (name: ComponentName, args?: readonly string[]): Promise<void> => {
      const component = byName.get(name)!;
      component.start(args);
      await component.waitUntil('ready again', readiness[name], timeoutMs);
    };
    const control = (name: ComponentName): ControlPlaneComponent => {
      const component = byName.get(name)!;
      return {
        name,
        get pid() {
          return component.pid;
        },
        get running() {
          return component.running;
        },
        kill: () => component.kill(),
        start: () => startAgain(name),
        async restart() {
          await component.kill();
          await startAgain(name);
        },
        pause: () => component.pause(),
        resume: () => component.resume(),
      };
    };
    const stopAll = stop;
    stop = async () => {
      etcdClient.close();
      await stopAll();
    };

    const adminKubeconfig = componentKubeconfig(server, pki, 'kubernetes-admin', pki.admin);
    const startupMs = Date.now() - started;
    log(`control plane ready in ${(startupMs / 1000).toFixed(1)} s (${workDir})`);
    return {
      server,
      kubeconfigYaml: adminKubeconfig,
      kubeconfigPath: kubeconfigs.admin!,
      workDir,
      startupMs,
      get pids() {
        return components.flatMap((component) => (component.pid === undefined ? [] : [component.pid]));
      },
      auditLogPath,
      async serviceAccountKubeconfig(namespace: string, name: string): Promise<string> {
        await client.ensure('/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: namespace },
        });
        await client.ensure(`/api/v1/namespaces/${namespace}/serviceaccounts`, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name, namespace },
        });
        const { code, body } = await client.request(
          'POST',
          `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
          {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenRequest',
            spec: { expirationSeconds: 86_400 },
          },
        );
        const token = (body as { status?: { token?: string } }).status?.token;
        if (code !== 201 || !token) {
          throw new Error(
            `TokenRequest for ${namespace}/${name} answered ${code}: ${JSON.stringify(body).slice(0, 300)}`,
          );
        }
        return kubeconfigYaml(server, pki.caFile, `system:serviceaccount:${namespace}:${name}`, { token });
      },
      component: control,
      async reconfigureApiServer(settings: ApiServerSettings) {
        apiServerSettings = { ...apiServerSettings, ...settings };
        await apiServer.kill();
        await startAgain('kube-apiserver', apiServerArgs(pki, etcdPort!, apiPort!, audit, apiServerSettings));
      },
      stop: () => stop(),
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
