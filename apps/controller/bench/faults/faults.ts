/**
 * The faults, each injected, held and ended by run(), which resolves at the end of the fault: the
 * moment the API server answers again (a restart, a resume), the toxic is removed, or the replica died.
 * Recovery is measured from there. What a fault leaves to undo once recovery is measured (the watch
 * cache turned back on, the killed replica's pod back) is `after`.
 */
import type { Toxic, ToxicSpec, ToxicStream } from '@scoby/kube-control-plane';
import { sleep } from '../chaos/cluster.ts';
import { NAMESPACE, NAMESPACES } from '../world.ts';
import type { FaultCluster } from './cluster.ts';

export interface FaultTimes {
  /** How long a toxic stays in place (not the black hole: 60 s, as the issue says). */
  toxicSeconds: number;
  pauseSeconds: number;
  blackHoleSeconds: number;
}

export interface FaultEnd {
  endedAt: number;
  after?: () => Promise<void>;
}

export interface Fault {
  name: string;
  /** What it does, for the report. */
  description: string;
  /** api: recovery within 10 s of the API server answering again; replica: within the lease + 10 s. */
  bound: 'api' | 'replica';
  /** The API server's history is compacted away: informers must list again (at least one list is expected). */
  forcesRelist?: boolean;
  /**
   * Connections are cut while answers are in flight: a list the API server answered (and audited as
   * answered) may never reach the replica, which must list again. Relist storms are then judged from
   * the fault's end, when every answer arrives again.
   */
  cutsAnswers?: boolean;
  run(cluster: FaultCluster, times: FaultTimes, log: (line: string) => void): Promise<FaultEnd>;
}

async function everyProxy(
  cluster: FaultCluster,
  act: (proxy: FaultCluster['replicas'][number]['proxy']) => Promise<void>,
) {
  await Promise.all(cluster.replicas.map((replica) => act(replica.proxy)));
}

/**
 * `spec` on every replica's proxy, in the given directions, for `seconds`; with `cutAtEnd`, the
 * connections open then are closed as the toxic goes (see black-hole).
 */
async function withToxic(
  cluster: FaultCluster,
  name: string,
  spec: ToxicSpec,
  streams: readonly ToxicStream[],
  seconds: number,
  cutAtEnd = false,
): Promise<FaultEnd> {
  const toxics: Toxic[] = streams.map((stream) => ({ ...spec, name: `${name}-${stream}`, stream }));
  await everyProxy(cluster, async (proxy) => {
    for (const toxic of toxics) await proxy.addToxic(toxic);
  });
  await sleep(seconds * 1000);
  await everyProxy(cluster, async (proxy) => {
    for (const toxic of toxics) await proxy.removeToxic(toxic.name);
    if (cutAtEnd) await proxy.cutConnections();
  });
  return { endedAt: Date.now() };
}

/** kube-apiserver reads from etcd again (after etcd came back, say). */
async function apiServerReady(cluster: FaultCluster): Promise<void> {
  for (;;) {
    const ready = await cluster.admin
      .get(NAMESPACES, undefined, NAMESPACE)
      .then(() => true)
      .catch(() => false);
    if (ready) return;
    await sleep(200);
  }
}

export const FAULTS: Fault[] = [
  {
    name: 'apiserver-kill',
    description: 'kube-apiserver SIGKILLed and started again',
    bound: 'api',
    async run(cluster) {
      await cluster.plane.component('kube-apiserver').restart();
      return { endedAt: Date.now() };
    },
  },
  {
    name: 'apiserver-pause',
    description: 'kube-apiserver SIGSTOPped, resumed after the pause',
    bound: 'api',
    async run(cluster, times) {
      const apiServer = cluster.plane.component('kube-apiserver');
      apiServer.pause();
      await sleep(times.pauseSeconds * 1000);
      apiServer.resume();
      return { endedAt: Date.now() };
    },
  },
  {
    name: 'etcd-kill',
    description: 'etcd SIGKILLed and started again',
    bound: 'api',
    async run(cluster) {
      await cluster.plane.component('etcd').restart();
      await apiServerReady(cluster);
      return { endedAt: Date.now() };
    },
  },
  {
    name: 'compaction',
    description: 'kube-apiserver restarted with its watch cache off and etcd compacted every second',
    bound: 'api',
    forcesRelist: true,
    async run(cluster, times) {
      await cluster.plane.reconfigureApiServer({ watchCache: false, etcdCompactionIntervalSeconds: 1 });
      // Watches now read etcd: objects keep changing a while under compaction before the fault ends.
      await sleep(times.toxicSeconds * 1000);
      return {
        endedAt: Date.now(),
        after: () =>
          cluster.plane.reconfigureApiServer({ watchCache: true, etcdCompactionIntervalSeconds: undefined }),
      };
    },
  },
  {
    name: 'latency',
    description: 'every byte from the API server delayed 1 s ± 0.5 s',
    bound: 'api',
    run: (cluster, times) =>
      withToxic(
        cluster,
        'latency',
        { type: 'latency', attributes: { latency: 1_000, jitter: 500 } },
        ['downstream'],
        times.toxicSeconds,
      ),
  },
  {
    name: 'reset-peer',
    description: 'every connection that moves a byte for 3 s is cut (open watches included)',
    bound: 'api',
    cutsAnswers: true,
    run: (cluster) =>
      withToxic(
        cluster,
        'reset',
        { type: 'reset_peer', attributes: { timeout: 0 } },
        ['downstream', 'upstream'],
        3,
      ),
  },
  {
    name: 'black-hole',
    // Toxiproxy's timeout toxic acknowledges and drops what it swallows: a request sent into the hole
    // would never arrive, where TCP would retransmit it once the route heals. The connections still
    // open when the hole ends are closed then, as those open from its start are after its 60 s.
    description: 'every byte swallowed for 60 s, then the connections closed',
    bound: 'api',
    cutsAnswers: true,
    run: (cluster, times) =>
      withToxic(
        cluster,
        'hole',
        { type: 'timeout', attributes: { timeout: times.blackHoleSeconds * 1000 } },
        ['downstream', 'upstream'],
        times.blackHoleSeconds,
        true,
      ),
  },
  {
    name: 'bandwidth',
    description: 'the API server’s answers limited to 16 KB/s per connection',
    bound: 'api',
    run: (cluster, times) =>
      withToxic(
        cluster,
        'narrow',
        { type: 'bandwidth', attributes: { rate: 16 } },
        ['downstream'],
        times.toxicSeconds,
      ),
  },
  {
    name: 'limit-data',
    description: 'every connection cut after 32 KiB from the API server (truncated answers)',
    bound: 'api',
    cutsAnswers: true,
    run: (cluster, times) =>
      withToxic(
        cluster,
        'cut',
        { type: 'limit_data', attributes: { bytes: 32_768 } },
        ['downstream'],
        times.toxicSeconds,
      ),
  },
  {
    name: 'replica-kill',
    description: 'one replica SIGKILLed; its registrations go to the others',
    bound: 'replica',
    async run(cluster) {
      const victim = cluster.replicas[0]!;
      await cluster.killReplica(victim);
      return { endedAt: Date.now(), after: () => cluster.startReplica(victim) };
    },
  },
  {
    name: 'mixed',
    description:
      'latency, then kube-apiserver SIGKILLed and started again, then every connection cut, at once',
    bound: 'api',
    cutsAnswers: true,
    async run(cluster) {
      const latency: Toxic = {
        name: 'mixed-latency',
        type: 'latency',
        stream: 'downstream',
        attributes: { latency: 500, jitter: 250 },
      };
      await everyProxy(cluster, (proxy) => proxy.addToxic(latency));
      await sleep(3_000);
      await cluster.plane.component('kube-apiserver').restart();
      const reset: Toxic = {
        name: 'mixed-reset',
        type: 'reset_peer',
        stream: 'downstream',
        attributes: { timeout: 0 },
      };
      await everyProxy(cluster, (proxy) => proxy.addToxic(reset));
      await sleep(3_000);
      await cluster.toxiproxy.removeAllToxics();
      return { endedAt: Date.now() };
    },
  },
];

/** The faults of the short CI run: one API server restart, one forced relist, one reset of open watches. */
export const CI_FAULTS = ['apiserver-kill', 'compaction', 'reset-peer'];
