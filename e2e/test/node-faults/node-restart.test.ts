/**
 * The node container itself restarted (docker restart: SIGTERM, then SIGKILL after 10 s). It starts
 * again from its own files: etcd's data, certificates, containerd's images; every pod was stopped
 * with it, and the cgroups its pods left are removed before the kubelet starts (it spent minutes on
 * them). The spec edits are made as soon as its API server answers again, before Scoby's pods run;
 * the node comes back, the pods run again, Scoby reconciles, and nothing is lost. About a minute, left
 * out of CI's run: E2E_SLOW_FAULTS=1 runs it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controllerPods, podReady } from '../../src/controller-pods.ts';
import { FaultBench } from '../../src/faults/fault-bench.ts';
import { suiteNode } from '../../src/faults/node-container.ts';
import { clusterForScenario, hookHost, type ClusterHandle } from '../../src/index.ts';
import { slowFaultOrReason } from '../../src/node-only.ts';

const STOP_GRACE_S = 10;
const skipped = slowFaultOrReason(
  'E2E_SLOW_FAULTS=1 e2e/scripts/e2e-node.sh test/node-faults/node-restart.test.ts',
);
let cluster: ClusterHandle;
let bench: FaultBench;

beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  bench = await FaultBench.start(cluster, hookHost(), { name: 'node-restart' });
});
afterAll(async () => {
  await bench?.close();
  cluster?.close();
});

describe.skipIf(skipped !== undefined)('the node container restarted', () => {
  it('comes back with its pods running, and Scoby loses nothing', async () => {
    const node = await suiteNode();
    const readyBefore = (await node.lines()).filter((line) => line === 'scoby-node: ready').length;
    let apiAnswered = 0;
    const report = await bench.measure('node container restarted', async (duringFault) => {
      await node.restart(STOP_GRACE_S);
      const running = Date.now();
      await node.apiServerReady(300_000);
      apiAnswered = Date.now() - running;
      await duringFault();
      return running;
    });
    console.log(
      `[e2e] node container restarted: its API server ready ${(apiAnswered / 1000).toFixed(1)} s after it ran again`,
    );
    const lines = await node.lines();
    expect(lines.filter((line) => line === 'scoby-node: ready')).toHaveLength(readyBefore + 1);
    // What the cgroups of its earlier run's pods cost when they stayed: the kubelet looked up each
    // one's container, 3 s apiece, before it synced any pod.
    const kubeletLog = await node.exec(['cat', '/var/log/scoby-node/kubelet.log']);
    expect(
      kubeletLog.split('\n').filter((line) => line.includes('Failed to create existing container')),
    ).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(/^scoby-node: removed [1-9]\d* cgroups left by the pods of its earlier run$/),
    );
    const pods = await controllerPods(cluster);
    expect(pods.map(podReady)).toEqual([true, true]);
    expect(report.recoverySeconds).toBeDefined();
    expect(report.lost).toEqual([]);
    expect(report.duplicates).toEqual([]);
    expect(report.unconsented).toEqual([]);
    expect(await bench.releaseHeld()).toEqual([]);
  });
});
