/** The adapter container and the pod spec around it (docs/spec/children-and-status.md §3.4). */
import type { JsonObject, JsonValue, RenderedContainer } from '@scoby/kube-objects';

/** Kubernetes omits empty lists; so do we, so the desired object matches what the server keeps. */
function nonEmpty(key: string, list: readonly unknown[]): JsonObject {
  return list.length > 0 ? { [key]: list as JsonValue } : {};
}

export function adapterContainer(image: string, container: RenderedContainer): JsonObject {
  return {
    name: 'adapter',
    image,
    ...nonEmpty('env', container.env),
    ...nonEmpty('volumeMounts', container.volumeMounts),
    terminationMessagePolicy: 'FallbackToLogsOnError',
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
  };
}

/** `{volumes, containers: [adapter]}` with `volumes` omitted when there are none. */
export function adapterPodSpec(image: string, container: RenderedContainer): JsonObject {
  return {
    ...nonEmpty('volumes', container.volumes),
    containers: [adapterContainer(image, container)],
  };
}
