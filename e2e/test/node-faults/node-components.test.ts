/**
 * A component of the node killed (SIGKILL): its supervisor starts it again (scoby-node-supervise),
 * the pods keep running (Scoby's containers are not restarted), and a spec edit made while it was
 * down rolls out once it is back. Nothing is lost, no instance gets a second child, and instances
 * held in deletion keep their finalizer until the hook consents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controllerPods, controllerRun } from '../../src/controller-pods.ts';
import { FaultBench } from '../../src/faults/fault-bench.ts';
import { suiteNode, type NodeContainer } from '../../src/faults/node-container.ts';
import { clusterForScenario, hookHost, type ClusterHandle } from '../../src/index.ts';
import { realPodsOrReason } from '../../src/node-only.ts';

const skipped = realPodsOrReason();
let cluster: ClusterHandle;
let bench: FaultBench;
let node: NodeContainer;

beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  node = await suiteNode();
  bench = await FaultBench.start(cluster, hookHost(), { name: 'components' });
});
afterAll(async () => {
  await bench?.close();
  cluster?.close();
});

const controllerRuns = async () => (await controllerPods(cluster)).map(controllerRun);

/** Kills `component`, edits while it is down, and checks what the supervisor said and what it cost. */
async function killedAndRestarted(component: string, fault: string): Promise<void> {
  const before = await controllerRuns();
  let killed = 0;
  const report = await bench.measure(fault, async (duringFault) => {
    killed = await node.kill(component);
    await duringFault();
    return node.restarted(component, killed);
  });
  const lines = await node.lines();
  expect(lines).toContainEqual(
    expect.stringMatching(
      new RegExp(
        `^scoby-node: ${component} exited \\(killed by SIGKILL\\) after \\d+ s; restart 1 of 5 in 1 s$`,
      ),
    ),
  );
  expect(lines).toContainEqual(
    expect.stringMatching(new RegExp(`^scoby-node: ${component} restarted \\(pid \\d+\\)$`)),
  );
  expect(await controllerRuns()).toEqual(before);
  expect(report.recoverySeconds).toBeDefined();
  expect(report.lost).toEqual([]);
  expect(report.duplicates).toEqual([]);
  expect(report.unconsented).toEqual([]);
}

describe.skipIf(skipped !== undefined)('a component of the node killed', () => {
  it('the kubelet restarted: pods keep running and Scoby loses nothing', async () => {
    await killedAndRestarted('kubelet', 'kubelet restarted');
  });

  it('containerd restarted: pods keep running and Scoby loses nothing', async () => {
    await killedAndRestarted('containerd', 'containerd restarted');
  });

  it('lets the held instances go once the hook consents, and not before', async () => {
    expect(await bench.releaseHeld()).toEqual([]);
  });
});
