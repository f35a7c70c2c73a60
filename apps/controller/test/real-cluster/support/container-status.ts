/**
 * What the kubelet writes for a Pod whose one container (`adapter`) waits, written by a test: kwok
 * runs no containers, so the reasons a real node reports (CrashLoopBackOff, ImagePullBackOff …) are
 * patched into the Pod's status.
 */
import type { DynamicClient, ResourceRef } from '@scoby/controller-runtime';
import type { KubeObject } from '@scoby/kube-objects';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods', namespaced: true };

/** `extra` adds to (or replaces) the container status's fields: a restartCount, a lastState. */
export async function containerWaits(
  client: DynamicClient,
  pod: KubeObject,
  image: string,
  waiting: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await client.patch(
    PODS,
    pod.metadata.namespace,
    pod.metadata.name ?? '',
    {
      status: {
        containerStatuses: [
          {
            name: 'adapter',
            image,
            imageID: '',
            ready: false,
            started: false,
            restartCount: 0,
            state: { waiting },
            ...extra,
          },
        ],
      },
    },
    { subresource: 'status' },
  );
}
