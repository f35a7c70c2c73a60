/** The controller's pods on the node container: the chart's (or deploy/'s) pods in SCOBY_NAMESPACE. */
import type { KubeObject } from '@scoby/kube-objects';
import type { ClusterHandle } from './handle.ts';
import { SCOBY_NAMESPACE } from './settings.ts';

export const CONTROLLER_POD_LABEL = 'app.kubernetes.io/name';

/** The pods labelled as the controller's; without those being deleted unless `deleting`. */
export async function controllerPods(
  cluster: ClusterHandle,
  { deleting = false }: { deleting?: boolean } = {},
): Promise<KubeObject[]> {
  return (await cluster.list('v1', 'Pod', SCOBY_NAMESPACE)).filter(
    (pod) =>
      pod.metadata.labels?.[CONTROLLER_POD_LABEL] === 'scoby-controller' &&
      (deleting || pod.metadata.deletionTimestamp === undefined),
  );
}

export const podReady = (pod: KubeObject): boolean =>
  ((pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (condition) => condition.type === 'Ready' && condition.status === 'True',
  );

/** The controller container of a pod: how often it restarted, and why its last run ended. */
export interface ControllerRun {
  pod: string;
  restarts: number;
  lastTermination: string | undefined;
}

export function controllerRun(pod: KubeObject): ControllerRun {
  const container = (
    pod.status as
      | { containerStatuses?: { restartCount?: number; lastState?: { terminated?: { reason?: string } } }[] }
      | undefined
  )?.containerStatuses?.[0];
  return {
    pod: String(pod.metadata.name),
    restarts: container?.restartCount ?? 0,
    lastTermination: container?.lastState?.terminated?.reason,
  };
}
