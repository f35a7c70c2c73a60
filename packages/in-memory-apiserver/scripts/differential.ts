/**
 * The long differential run: `npm run differential -w @scoby/in-memory-apiserver -- --requests 10000`
 * sends generated request sequences to a fresh in-memory server and to kube-apiserver (a control plane
 * started here, or the cluster of CONFORMANCE_KUBECONFIG; `--in-memory` compares two in-memory servers)
 * until that many requests were compared, then prints the figures: requests compared, sequences,
 * differences (accepted ones by class), coverage and time. Exits 1 with the shrunk reproduction when an
 * unlisted difference is found.
 */
import { parseArgs } from 'node:util';
import { startControlPlane } from '@scoby/kube-control-plane';
import { KubeConfig } from '@kubernetes/client-node';
import type { Target } from '../test/conformance/harness.ts';
import { Coverage } from '../test/differential/coverage.ts';
import {
  checkDifferential,
  freshInMemory,
  sharedCluster,
  type Reference,
} from '../test/differential/differential.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 100_000) },
    'max-length': { type: 'string', default: '40' },
    'in-memory': { type: 'boolean', default: false },
  },
});
const wanted = Number(values.requests);
const maxLength = Number(values['max-length']);
let seed = Number(values.seed);

function clusterAt(kubeconfigPath: string): Target {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  return { kubeConfig, server: undefined, stop: async () => {} };
}

async function referenceServer(): Promise<{ reference: Reference; stop(): Promise<void> }> {
  if (values['in-memory']) return { reference: freshInMemory(), stop: async () => {} };
  const given = process.env.CONFORMANCE_KUBECONFIG;
  if (given) return { reference: sharedCluster(clusterAt(given)), stop: async () => {} };
  const plane = await startControlPlane({ log: (line) => console.log(`[control plane] ${line}`) });
  return { reference: sharedCluster(clusterAt(plane.kubeconfigPath)), stop: () => plane.stop() };
}

const { reference, stop } = await referenceServer();
const coverage = new Coverage();
const started = Date.now();
let requests = 0;
let sequences = 0;
let accepted = 0;
let skipped = 0;
let failure: unknown;
try {
  while (requests < wanted) {
    const figures = await checkDifferential({ seed, runs: 20, maxLength, reference, coverage });
    requests += figures.requests;
    sequences += figures.sequences;
    accepted += figures.acceptedDifferences;
    skipped += figures.skipped;
    console.log(
      `seed ${seed}: ${requests}/${wanted} requests compared, ${Math.round((Date.now() - started) / 1000)} s`,
    );
    seed++;
  }
} catch (error) {
  failure = error;
  const partial = (
    error as {
      figures?: { requests: number; sequences: number; acceptedDifferences: number; skipped: number };
    }
  ).figures;
  requests += partial?.requests ?? 0;
  sequences += partial?.sequences ?? 0;
  accepted += partial?.acceptedDifferences ?? 0;
  skipped += partial?.skipped ?? 0;
} finally {
  await stop();
}
console.log(coverage.table());
console.log(
  `figures: ${requests} requests in ${sequences} sequences compared against ${reference.label}; ${accepted} accepted differences met (${skipped} requests after them not sent); ${failure === undefined ? 0 : 1} unlisted difference; ${Math.round((Date.now() - started) / 1000)} s`,
);
if (failure !== undefined) {
  console.error(String((failure as Error & { cause?: Error }).cause?.message ?? failure));
  process.exit(1);
}
