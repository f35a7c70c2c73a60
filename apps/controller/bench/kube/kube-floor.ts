/**
 * The floor on a real API server: per instance, create its Deployment and its Service, and once
 * kube-controller-manager reports the Deployment Available (watched, one list and one watch), patch
 * the instance's status to Ready, as a controller must; no rendering, no queue, no cache beyond that
 * watch. Every write runs on the same `workers` slots, as the controller's reconciles do; a worker
 * never waits for a Deployment, it takes the next write, and a status patch before any create still
 * waiting, as the controller's queue takes a change before the initial list
 * (docs/spec/children-and-status.md §9): the least a controller can make Ready wait.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { type DynamicClient, SharedInformer } from '@scoby/controller-runtime';
import { deployment, readyStatus, service } from '../floor.ts';
import { DEPLOYMENTS, INSTANCES, NAMESPACE, REGISTRATION, SERVICES } from '../world.ts';

interface Workers {
  /** `first`: before every task added without it. */
  add(task: () => Promise<void>, first?: boolean): void;
  /** Resolves once every task added has run; rejects with the first failure. */
  drain(): Promise<void>;
}

function workers(count: number, onError: (error: unknown) => void): Workers {
  const firstTasks: Array<() => Promise<void>> = [];
  const tasks: Array<() => Promise<void>> = [];
  const idle: Array<() => void> = [];
  let closed = false;
  const loop = async () => {
    for (;;) {
      const task = firstTasks.shift() ?? tasks.shift();
      if (task) await task().catch(onError);
      else if (closed) return;
      else await new Promise<void>((resolve) => idle.push(resolve));
    }
  };
  const loops = Array.from({ length: count }, loop);
  return {
    add(task, first = false) {
      (first ? firstTasks : tasks).push(task);
      idle.shift()?.();
    },
    async drain() {
      closed = true;
      idle.splice(0).forEach((wake) => wake());
      await Promise.all(loops);
    },
  };
}

function isAvailable(object: KubeObject): boolean {
  const conditions =
    (object.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((condition) => condition.type === 'Available' && condition.status === 'True');
}

/** Resolves once every instance's status has been patched to Ready. */
export async function runKubeFloor(client: DynamicClient, count: number, concurrency: number): Promise<void> {
  let allPatched: () => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const done = new Promise<void>((resolve, reject) => {
    allPatched = resolve;
    failed = reject;
  });
  const pool = workers(concurrency, (error) => failed(error));
  const patched = new Set<string>();
  let patches = 0;
  const prefix = `${REGISTRATION}-`;
  const deployments = new SharedInformer({ lister: client, resource: DEPLOYMENTS, namespaces: [NAMESPACE] });
  const observe = (object: KubeObject) => {
    const instance = (object.metadata.name ?? '').slice(prefix.length);
    if (!isAvailable(object) || patched.has(instance)) return;
    patched.add(instance);
    pool.add(async () => {
      await client.patch(
        INSTANCES,
        NAMESPACE,
        instance,
        { status: readyStatus(instance, new Date().toISOString().replace(/\.\d+Z$/, 'Z')) },
        { subresource: 'status' },
      );
      if (++patches === count) allPatched();
    }, true);
  };
  deployments.addHandlers({ add: observe, update: observe });
  deployments.start();

  // The uids the owner references need, as a controller's cache would hold them.
  const instances = (await client.list(INSTANCES, NAMESPACE)).items;
  for (const item of instances) {
    const owner = { name: item.metadata.name ?? '', uid: item.metadata.uid ?? '' };
    pool.add(async () => {
      await client.create(DEPLOYMENTS, deployment(owner));
      await client.create(SERVICES, service(owner));
    });
  }
  try {
    await done;
  } finally {
    deployments.stop();
    await pool.drain();
  }
}
