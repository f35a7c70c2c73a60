import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@scoby/kube-objects';
// eslint-disable-next-line @nx/enforce-module-boundaries -- imported as a controller outside this package does
import {
  Controller,
  createRuntimeMetrics,
  DynamicClient,
  InformerFactory,
  startOpsServer,
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
  const factory = new InformerFactory({ lister: client, logger });

  const controller: Controller = new Controller({
    name: CONTROLLER,
    factory,
    // Every add, update and delete of a labelled ConfigMap enqueues it.
    for: { resource: CONFIGMAPS, labelSelector: MIRRORED, group: '', kind: 'ConfigMap' },
    // Reads the cache and writes the desired state; nothing more is sent once `signal` fired (its
    // deadline, or the controller stopped aborting). A throw is retried with backoff.
    reconcile: async (key, { signal }) => {
      const source = controller.get(key);
      if (source === undefined) return; // deleted: the garbage collector removes the mirror it owns
      const mirror: KubeObject = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          namespace: key.namespace,
          name: `${key.name}-mirror`,
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: key.name,
              uid: source.metadata.uid!,
              controller: true,
            },
          ],
        },
        data: (source as { data?: Record<string, string> }).data ?? {},
      };
      await client.apply(CONFIGMAPS, mirror, CONTROLLER, { signal });
    },
    concurrency: 2,
    observer: metrics.queueObserver(CONTROLLER, 2),
    logger,
  });

  const ops = await startOpsServer({ port: 0, host: '127.0.0.1', registry: metrics.registry });
  ops.setReady(await controller.waitForSync(30_000));

  return {
    opsPort: ops.port,
    async stop() {
      await controller.stop();
      factory.stopAll();
      await ops.close();
      client.close();
    },
  };
}
