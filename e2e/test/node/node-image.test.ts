/**
 * The node image on a busy machine: started beside the suite's node with a CPU quota until it says
 * ready, its API server needs longer to become ready than the 10 s kube-controller-manager gives it
 * at start (so a node that started them together lost its controller manager, and stopped, right
 * after it said ready). It still comes up: Ready, CoreDNS available and answering through its Service.
 */
import { describe, expect, it } from 'vitest';
import { realPodsOrReason } from '../../src/node-only.ts';
import { startNodeCluster } from '../../src/providers/node.ts';
import { readSettings } from '../../src/settings.ts';

/**
 * Docker's --cpus while the node starts (lifted once it says ready): its API server then needs 20 s
 * or more to become ready.
 */
const BUSY_MACHINE_CPUS = 0.15;
/** What kube-controller-manager waits for the API server's /healthz before it exits. */
const CONTROLLER_MANAGER_PATIENCE_S = 10;

const skipped = realPodsOrReason();

describe.skipIf(skipped !== undefined)('the node image', () => {
  it('comes up with cluster DNS when its API server is slow to start', async () => {
    const reading = readSettings(process.env);
    if (!reading.ok) throw new Error(reading.message);
    const lines: string[] = [];
    const log = (line: string): void => {
      lines.push(line);
      console.log(`[e2e] busy ${line}`);
    };
    // Resolves once the node is Ready and a name resolves through the kube-dns Service; fails when the
    // node stops on the way.
    const node = await startNodeCluster(reading.settings.nodeImage, [], log, {
      startingCpus: BUSY_MACHINE_CPUS,
    });
    await node.stop();
    const apiServerReady = lines
      .map((line) => /^node: kube-apiserver ready (\d+) s after its start$/.exec(line)?.[1])
      .find((seconds) => seconds !== undefined);
    // The case this test is about: otherwise it proves nothing.
    expect(Number(apiServerReady)).toBeGreaterThan(CONTROLLER_MANAGER_PATIENCE_S);
  });
});
