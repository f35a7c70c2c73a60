/** Watches the instances and resolves once every one of them reports Ready=True. */
import type { KubeObject } from '@scoby/kube-objects';
import { type DynamicClient, SharedInformer } from '@scoby/controller-runtime';
import { INSTANCES, NAMESPACE } from './world.ts';

export interface ReadinessWatch {
  /** Resolves when `count` instances are Ready=True. */
  allReady(): Promise<void>;
  stop(): void;
}

export function isReady(object: KubeObject): boolean {
  const conditions =
    (object.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((condition) => condition.type === 'Ready' && condition.status === 'True');
}

export async function watchReadiness(client: DynamicClient, count: number): Promise<ReadinessWatch> {
  const informer = new SharedInformer({
    lister: client,
    resource: INSTANCES,
    namespaces: [NAMESPACE],
  });
  const ready = new Set<string>();
  let notify: (() => void) | undefined;
  const observe = (object: KubeObject) => {
    if (isReady(object)) ready.add(object.metadata.name ?? '');
    if (ready.size >= count) notify?.();
  };
  informer.addHandlers({ add: observe, update: observe });
  informer.start();
  await informer.waitForSync(60_000);
  return {
    allReady: () =>
      ready.size >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            notify = resolve;
          }),
    stop: () => informer.stop(),
  };
}
