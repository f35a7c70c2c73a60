/**
 * Watches every registration's instances (one informer per registration, as the harness of the
 * controller bench watches its one): resolves once all are Ready=True, and once a given instance's
 * status reports a given generation observed (the edit made after a replica was killed).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { type DynamicClient, SharedInformer } from '@scoby/controller-runtime';
import { isReady } from './readiness.ts';
import { instancesOf, namespaceOf } from './replicas-world.ts';

export interface ReplicasWatch {
  /** Resolves when every instance of every registration is Ready=True. */
  allReady(): Promise<void>;
  /** Resolves (with performance.now()) when the instance's status is Ready at `generation`. */
  reconciledAt(index: number, name: string, generation: number): Promise<number>;
  stop(): void;
}

interface Waiter {
  generation: number;
  resolve: (at: number) => void;
}

const observedGeneration = (object: KubeObject) =>
  (object.status as { observedGeneration?: number } | undefined)?.observedGeneration ?? 0;

export async function watchReplicasWorld(
  client: DynamicClient,
  registrations: number,
  perRegistration: number,
): Promise<ReplicasWatch> {
  const total = registrations * perRegistration;
  const ready = new Set<string>();
  const waiters = new Map<string, Waiter>();
  let notify: (() => void) | undefined;
  const informers = Array.from({ length: registrations }, (_, index) => {
    const informer = new SharedInformer({
      lister: client,
      resource: instancesOf(index),
      namespaces: [namespaceOf(index)],
    });
    const observe = (object: KubeObject) => {
      const key = `${index}/${object.metadata.name ?? ''}`;
      if (isReady(object)) ready.add(key);
      else ready.delete(key);
      if (ready.size >= total) notify?.();
      const waiter = waiters.get(key);
      if (waiter && isReady(object) && observedGeneration(object) >= waiter.generation) {
        waiters.delete(key);
        waiter.resolve(performance.now());
      }
    };
    informer.addHandlers({ add: observe, update: observe });
    informer.start();
    return informer;
  });
  await Promise.all(informers.map((informer) => informer.waitForSync(120_000)));
  return {
    allReady: () =>
      ready.size >= total
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            notify = resolve;
          }),
    reconciledAt: (index, name, generation) => {
      const current = informers[index]?.get(namespaceOf(index), name);
      if (current && isReady(current) && observedGeneration(current) >= generation)
        return Promise.resolve(performance.now());
      return new Promise<number>((resolve) => waiters.set(`${index}/${name}`, { generation, resolve }));
    },
    stop: () => {
      for (const informer of informers) informer.stop();
    },
  };
}
