/**
 * Throughput of the in-memory API server through @kubernetes/client-node at 10,000 objects:
 * creates/s, status patches/s, and watch fan-out latency with watches open. Run: npm run bench.
 */
import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  Watch,
} from '@kubernetes/client-node';
import { startApiServer } from '../src/index.ts';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 10_000);
const CONCURRENCY = 32;
const WATCHERS = 10;
const GROUP = 'bench.example.com';

async function inParallel(count: number, task: (index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

const bootStarted = performance.now();
const server = await startApiServer({
  simulate: { deployments: false, knativeServices: false, statefulSets: false },
});
const bootMs = performance.now() - bootStarted;
const config = server.kubeConfig();
await config.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
  body: {
    metadata: { name: `gadgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { size: { type: 'integer' } } },
                status: { type: 'object', properties: { observed: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  },
});
const custom = config.makeApiClient(CustomObjectsApi);
const base = { group: GROUP, version: 'v1', namespace: 'default', plural: 'gadgets' };

const createSeconds = await inParallel(OBJECTS, (index) =>
  custom.createNamespacedCustomObject({
    ...base,
    body: {
      apiVersion: `${GROUP}/v1`,
      kind: 'Gadget',
      metadata: { name: `g-${index}` },
      spec: { size: index },
    },
  }),
);
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const patchSeconds = await inParallel(OBJECTS, (index) =>
  custom.patchNamespacedCustomObjectStatus(
    { ...base, name: `g-${index}`, body: { status: { observed: index } } },
    merge,
  ),
);

// Fan-out: every watcher must see each change; latency from just before the write to receipt.
const sentAt = new Map<string, number>();
const latencies: number[] = [];
const list = await custom.listNamespacedCustomObject({ ...base, limit: 1 });
const controllers = await Promise.all(
  Array.from({ length: WATCHERS }, () =>
    new Watch(config).watch(
      `/apis/${GROUP}/v1/namespaces/default/gadgets`,
      { resourceVersion: list.metadata.resourceVersion },
      (_type, object: { metadata: { name: string } }) => {
        const sent = sentAt.get(object.metadata.name);
        if (sent !== undefined) latencies.push(performance.now() - sent);
      },
      () => {},
    ),
  ),
);
const FANOUT_CHANGES = 1000;
for (let index = 0; index < FANOUT_CHANGES; index++) {
  sentAt.set(`g-${index}`, performance.now());
  await custom.patchNamespacedCustomObject(
    { ...base, name: `g-${index}`, body: { spec: { size: -index } } },
    merge,
  );
}
const deadline = Date.now() + 10_000;
while (latencies.length < FANOUT_CHANGES * WATCHERS && Date.now() < deadline)
  await new Promise((resolve) => setTimeout(resolve, 20));
for (const controller of controllers) controller.abort();
await server.stop();

latencies.sort((a, b) => a - b);
console.log(`objects: ${OBJECTS}, client concurrency: ${CONCURRENCY}`);
console.log(`startup: ${bootMs.toFixed(0)} ms`);
console.log(`creates/s: ${(OBJECTS / createSeconds).toFixed(0)}`);
console.log(`status patches/s: ${(OBJECTS / patchSeconds).toFixed(0)}`);
console.log(
  `watch fan-out (${WATCHERS} watchers, ${FANOUT_CHANGES} changes, ${latencies.length} deliveries): p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms`,
);
