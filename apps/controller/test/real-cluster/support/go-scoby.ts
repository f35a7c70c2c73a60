/**
 * A cluster as Go Scoby (github.com/triggermesh/scoby) leaves it, written the way Go Scoby writes:
 * controller-runtime's client with no field owner, so the API server names its field manager after
 * the binary, `scoby-controller`, and every write is an Update (POST, PUT, PUT of status).
 */
import type { KubeObject } from '@scoby/kube-objects';
import { type DynamicClient, resourcePath } from '@scoby/controller-runtime';

export const GO_SCOBY_FIELD_MANAGER = 'scoby-controller';
export const GO_SCOBY_FINALIZER = 'scoby.triggermesh.io/finalizer';

/**
 * The per-CRD ClusterRole of Go Scoby's docs (docs/samples/01.kuard/02.kuard-clusterrole.yaml): update,
 * not patch, on the instances and their status.
 */
export function goScobyKindRole(group: string, plural: string): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: `crd-registrations-scoby-${plural}.${group}`,
      labels: { 'scoby.triggermesh.io/crdregistration': 'true', 'app.kubernetes.io/name': 'scoby' },
    },
    rules: [
      { apiGroups: [group], resources: [plural], verbs: ['get', 'list', 'watch', 'update'] },
      { apiGroups: [group], resources: [`${plural}/status`], verbs: ['update'] },
    ],
  } as KubeObject;
}

/** The labels Go Scoby puts on every child (pkg/component/reconciler/formfactor/deployment). */
export function goScobyLabels(registration: string, instance: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': registration,
    'app.kubernetes.io/instance': instance,
    'app.kubernetes.io/component': 'workload',
    'app.kubernetes.io/part-of': 'scoby-component',
    'app.kubernetes.io/managed-by': 'scoby-controller',
  };
}

function selector(registration: string, instance: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': registration,
    'app.kubernetes.io/instance': instance,
    'app.kubernetes.io/component': 'workload',
  };
}

/** metav1.NewControllerRef of the instance. */
function controllerRef(instance: KubeObject) {
  return {
    apiVersion: instance.apiVersion,
    kind: instance.kind,
    name: instance.metadata.name ?? '',
    uid: instance.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Go Scoby's Deployment `<registration>-<instance>`: one `adapter` container, the rendered env. */
export function goScobyDeployment(
  registration: string,
  instance: KubeObject,
  image: string,
  env: { name: string; value: string }[],
): KubeObject {
  const name = instance.metadata.name ?? '';
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: `${registration}-${name}`,
      namespace: instance.metadata.namespace,
      labels: goScobyLabels(registration, name),
      ownerReferences: [controllerRef(instance)],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: selector(registration, name) },
      template: {
        metadata: { labels: selector(registration, name) },
        spec: { containers: [{ name: 'adapter', image, env }] },
      },
    },
  };
}

export function goScobyService(registration: string, instance: KubeObject, port: number, targetPort: number) {
  const name = instance.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: `${registration}-${name}`,
      namespace: instance.metadata.namespace,
      labels: goScobyLabels(registration, name),
      ownerReferences: [controllerRef(instance)],
    },
    spec: { selector: selector(registration, name), ports: [{ port, targetPort }] },
  } as KubeObject;
}

/** Writes as Go Scoby: POST, PUT and PUT of status with its field manager (Update entries). */
export class GoScobyWriter {
  readonly #client: DynamicClient;

  constructor(client: DynamicClient) {
    this.#client = client;
  }

  async create(object: KubeObject): Promise<KubeObject> {
    const resource = await this.#resource(object);
    return this.#client.create(resource, object, GO_SCOBY_FIELD_MANAGER);
  }

  async update(object: KubeObject, subresource?: 'status'): Promise<KubeObject> {
    const resource = await this.#resource(object);
    const path = resourcePath(resource, object.metadata.namespace, object.metadata.name, subresource);
    return this.#client.request('PUT', path, {
      body: object,
      query: { fieldManager: GO_SCOBY_FIELD_MANAGER },
    });
  }

  async #resource(object: KubeObject) {
    const resource = await this.#client.resourceFor(object.apiVersion, object.kind);
    if (!resource) throw new Error(`no resource for ${object.apiVersion} ${object.kind}`);
    return resource;
  }
}
