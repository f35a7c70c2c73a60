/** Starts the cluster E2E_CLUSTER asks for, or fails saying exactly why it cannot. */
import type { E2eSettings } from '../settings.ts';
import { chooseProvider } from './choose.ts';
import { k3sProbe, localImageProbe } from './k3s-probe.ts';
import { startK3sCluster, testcontainersRuntime } from './k3s.ts';
import { startKwokCluster } from './kwok.ts';
import { startMemoryCluster } from './memory.ts';
import { knativeImages } from './knative.ts';
import { startNodeCluster } from './node.ts';
import { NODE_WORKLOAD_IMAGES } from '../settings.ts';
import type { StartedCluster } from './started-cluster.ts';

export async function startCluster(
  settings: E2eSettings,
  log: (line: string) => void,
): Promise<StartedCluster> {
  const choice = await chooseProvider(
    settings.cluster,
    k3sProbe(settings.k3sImage, testcontainersRuntime),
    localImageProbe(settings.nodeImage, testcontainersRuntime),
  );
  if (!choice.ok) throw new Error(choice.message);
  if (choice.notice !== undefined) log(choice.notice);
  if (choice.provider === 'memory') return startMemoryCluster();
  if (choice.provider === 'kwok') return startKwokCluster(log);
  if (choice.provider === 'node') {
    log(`starting ${settings.nodeImage}`);
    const preload = [
      ...(settings.controllerImage === undefined ? [] : [settings.controllerImage]),
      ...NODE_WORKLOAD_IMAGES,
      ...(settings.knative ? knativeImages() : []),
    ];
    return startNodeCluster(settings.nodeImage, preload, log, { knative: settings.knative });
  }
  log(`starting ${settings.k3sImage}`);
  return startK3sCluster(
    settings.k3sImage,
    settings.controllerImage === undefined ? [] : [settings.controllerImage],
  );
}
