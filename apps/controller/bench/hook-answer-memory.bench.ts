/**
 * Hook answer memory (not a test; prints figures): N instances of one registration whose
 * pre-reconcile hook answers every call with a body of 16 MiB - 1 byte, the largest docs/spec/hooks-v1.md §2
 * admits, all at once (--concurrency N). Prints the controller's peak RSS, which the shipped
 * Deployment limits to 512 Mi (deploy/20-deployment.yaml), how many hook calls failed (an answer the
 * hook answer budget cannot hold fails, and is retried) and how many instances got Ready. The API
 * server and the controller run in child processes of their own; the hook runs here.
 *
 * Run: npx tsx --conditions=@scoby/source bench/hook-answer-memory.bench.ts. BENCH_N (default 40) instances; BENCH_SHAPES
 * (default string,objects,numbers) the answers: one long string, `[{},{},…]` (the most memory per
 * byte once parsed) or `[0,0,…]`; BENCH_SECONDS (default 20) how long the hook keeps answering.
 * The controller runs with the heap Node gives it in a 512 Mi container (BENCH_CONTROLLER_NODE_ARGS
 * replaces those options; set it to " " for Node's defaults on this machine).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '@scoby/kube-objects';
import { DynamicClient } from '@scoby/controller-runtime';
import { startApiServerProcess } from './api-server-client.ts';
import { startControllerChild } from './controller-client.ts';
import { isReady } from './readiness.ts';
import { createWorld, INSTANCES, NAMESPACE, registration } from './world.ts';

const MAX_ANSWER_BYTES = 16 * 1024 * 1024 - 1;
// Node sizes its heap from the container's memory limit; this is what it picks for 512 Mi.
process.env.BENCH_CONTROLLER_NODE_ARGS ??= '--max-old-space-size=256 --max-semi-space-size=4';
const count = Number(process.env.BENCH_N ?? 40);
const shapes = (process.env.BENCH_SHAPES ?? 'string,objects,numbers').split(',');
const seconds = Number(process.env.BENCH_SECONDS ?? 20);

/** A 2xx answer of exactly MAX_ANSWER_BYTES whose bulk sits in `object.spec`, which Scoby ignores. */
function answer(shape: string): Buffer {
  const head = '{"object":{"spec":{"bulk":';
  const tail = '}}}';
  const room = MAX_ANSWER_BYTES - head.length - tail.length;
  let bulk: string;
  if (shape === 'string') bulk = `"${'x'.repeat(room - 2)}"`;
  else {
    const element = shape === 'objects' ? '{}' : '0';
    const count = Math.floor((room - 2 + 1) / (element.length + 1));
    const list = `[${Array(count).fill(element).join(',')}]`;
    bulk = list + ' '.repeat(room - list.length);
  }
  const body = Buffer.from(head + bulk + tail);
  if (body.length !== MAX_ANSWER_BYTES) throw new Error(`answer of ${body.length} bytes`);
  return body;
}

async function startHook(body: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The Ready messages of the instances that are not Ready, with how many share each. */
function notReadyBecause(instances: KubeObject[], hookUrl: string): Map<string, number> {
  const messages = new Map<string, number>();
  for (const instance of instances.filter((object) => !isReady(object))) {
    const conditions = (instance.status as { conditions?: { type: string; message?: string }[] } | undefined)
      ?.conditions;
    const message = (
      conditions?.find((condition) => condition.type === 'Ready')?.message || 'no Ready condition yet'
    ).replaceAll(hookUrl, '<hook>');
    messages.set(message, (messages.get(message) ?? 0) + 1);
  }
  return messages;
}

async function run(shape: string): Promise<void> {
  const server = await startApiServerProcess();
  const controller = await startControllerChild();
  const hook = await startHook(answer(shape));
  const client = new DynamicClient(server.kubeConfig());
  try {
    await createWorld(client, count, 8, registration(hook.url));
    await controller.start(server.kubeConfig(), count);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const usage = await controller.usage();
    const { calls, failures } = await controller.hookCalls();
    const instances = (await client.list(INSTANCES, NAMESPACE)).items;
    const ready = instances.filter(isReady).length;
    console.log(
      `${shape.padEnd(8)} peak RSS ${(usage.maxRssKiB / 1024).toFixed(0)} MiB (loaded: ${controller.loadedRssMiB.toFixed(0)} MiB); ` +
        `hook calls ${calls} (${failures} failed), instances Ready ${ready}/${count}; CPU ${usage.cpuSeconds.toFixed(1)} s`,
    );
    for (const [message, times] of notReadyBecause(instances, hook.url)) {
      console.log(`${' '.repeat(9)}${times} not Ready: ${message}`);
    }
  } finally {
    await hook.close();
    await controller.stop();
    client.close();
    await server.stop();
  }
}

console.log(
  `hook answer memory: ${count} instances, all reconciled at once, each hook answer ${MAX_ANSWER_BYTES} bytes, ` +
    `${seconds} s; controller node options: ${process.env.BENCH_CONTROLLER_NODE_ARGS || 'none'}`,
);
for (const shape of shapes) await run(shape);
