import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
// eslint-disable-next-line @nx/enforce-module-boundaries -- imported as a controller outside this package does
import {
  createRuntimeMetrics,
  DynamicClient,
  objectKey,
  SharedInformer,
  startOpsServer,
  WorkQueue,
  type Logger,
  type ResourceRef,
} from '@scoby/controller-runtime';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const CONTROLLER = 'configmap-mirror';
export const MIRRORED = 'example.com/mirror=true';

/** Keeps `<name>-mirror` beside every ConfigMap labelled example.com/mirror=true, with the same data. */
export async function startMirrorController(kubeConfig: KubeConfig, logger: Logger) {
  const metrics = createRuntimeMetrics();
  const client = new DynamicClient(kubeConfig, { onResponse: metrics.recordRequest });
  const sources = new SharedInformer({
    lister: client,
    resource: CONFIGMAPS,
    labelSelector: MIRRORED,
    logger,
  });

  // The reconcile reads the cache and writes the desired state; the queue retries it with backoff if it throws.
  const reconcile = async (key: string) => {
    const [namespace, name] = key.split('/') as [string, string];
    const source = sources.get(namespace, name);
    if (source === undefined) return; // deleted: the garbage collector removes the mirror it owns
    const mirror: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        namespace,
        name: `${name}-mirror`,
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name, uid: source.metadata.uid!, controller: true },
        ],
      },
      data: (source as { data?: Record<string, string> }).data ?? {},
    };
    await client.apply(CONFIGMAPS, mirror, CONTROLLER);
  };
  const queue = new WorkQueue({
    reconcile,
    concurrency: 2,
    observer: metrics.queueObserver(CONTROLLER, 2),
    logger,
  });
  const enqueue = (object: KubeObject) =>
    queue.add(objectKey(object.metadata.namespace, object.metadata.name!));
  sources.addHandlers({ add: enqueue, update: enqueue });

  const ops = await startOpsServer({ port: 0, host: '127.0.0.1', registry: metrics.registry });
  sources.start();
  ops.setReady(await sources.waitForSync(30_000));

  return {
    opsPort: ops.port,
    async stop() {
      sources.stop();
      await queue.shutdown();
      await ops.close();
      client.close();
    },
  };
}
