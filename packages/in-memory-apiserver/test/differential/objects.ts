/** The bodies the generator writes: a valid object per resource and the mistakes applied to one. */
import {
  CLUSTER_SCOPED,
  CURRENT_RV,
  kindOf,
  objectName,
  SEQUENCE,
  type Mistake,
  type Resource,
} from './model.ts';

export type Json = Record<string, unknown>;

export const TIERS = ['front', 'back'] as const;
export const HOLD_FINALIZER = 'example.com/hold';

/** A valid object of the resource; `variant` changes its labels and values. */
export function validObject(resource: Resource, name: string, variant: number): Json {
  const metadata = {
    name: objectName(resource, name),
    labels: {
      tier: TIERS[variant % 2],
      run: 'differential',
      // Lists of a cluster-scoped resource select the sequence's own objects.
      ...(CLUSTER_SCOPED.includes(resource) ? { sequence: SEQUENCE } : {}),
    },
  };
  const value = `value-${variant}`;
  switch (resource) {
    case 'services':
      return { ...kindOf(resource), metadata, spec: serviceSpec(name, variant) };
    case 'events':
      return {
        ...kindOf(resource),
        metadata,
        involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name, namespace: SEQUENCE },
        reason: variant % 2 === 0 ? 'Created' : 'Updated',
        message: value,
        type: variant % 3 === 0 ? 'Warning' : 'Normal',
        source: { component: 'scoby' },
        reportingComponent: 'scoby',
        reportingInstance: 'scoby-0',
        firstTimestamp: '2026-01-01T00:00:00Z',
        lastTimestamp: `2026-01-01T00:00:0${variant}Z`,
        count: variant + 1,
      };
    case 'leases':
      return {
        ...kindOf(resource),
        metadata,
        spec: {
          holderIdentity: `candidate-${variant % 2}`,
          leaseDurationSeconds: 15 + variant,
          acquireTime: '2026-01-01T00:00:00.000000Z',
          renewTime: `2026-01-01T00:00:0${variant}.123456Z`,
          leaseTransitions: variant,
        },
      };
    case 'widgets':
      return {
        ...kindOf(resource),
        metadata,
        spec: {
          size: variant,
          color: TIERS[variant % 2],
          tags: [`tag-${variant % 3}`],
          ports: [{ name: 'http', port: 8080 + (variant % 2) }],
        },
      };
    case 'crdregistrations':
      return {
        ...kindOf(resource),
        metadata,
        spec: {
          crd: 'widgets.differential.example.com',
          workload: {
            fromImage: { repo: `registry.example/adapter:${variant % 4}` },
            formFactor: {
              deployment: {
                replicas: variant % 3,
                ...(variant % 2 === 0 ? { service: { port: 80, targetPort: 8080 } } : {}),
              },
            },
          },
        },
      };
    case 'configmaps':
      return { ...kindOf(resource), metadata, data: { key: value } };
    case 'secrets':
      return {
        ...kindOf(resource),
        metadata,
        type: 'Opaque',
        data: { key: Buffer.from(value).toString('base64') },
      };
    case 'deployments':
      return {
        ...kindOf(resource),
        metadata,
        spec: {
          replicas: variant % 3,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: podSpec(variant, value),
          },
        },
      };
  }
}

/**
 * A pod template as Scoby writes it (a container with env), with probes and resources, or with ports,
 * a readiness probe and emptyDir and downwardAPI volumes, by variant.
 */
function podSpec(variant: number, value: string): Json {
  const container: Json = {
    name: 'main',
    image: `registry.example/app:${variant % 4}`,
    env: [{ name: 'VALUE', value }],
  };
  if (variant % 3 === 0) {
    container.livenessProbe = { httpGet: { port: 8080, path: '/healthz' }, periodSeconds: 5 + variant };
    container.resources = {
      limits: { cpu: '500m', memory: '128Mi' },
      requests: { cpu: variant % 2 === 0 ? '0.25' : '250m', memory: '64Mi' },
    };
  }
  if (variant % 3 === 1) {
    container.ports = [{ name: 'http', containerPort: 8080 }];
    container.readinessProbe = { tcpSocket: { port: 'http' } };
    container.volumeMounts = [
      { name: 'scratch', mountPath: '/scratch' },
      { name: 'labels', mountPath: '/etc/labels' },
    ];
    return {
      containers: [container],
      volumes: [
        { name: 'scratch', emptyDir: { sizeLimit: '1024Mi' } },
        {
          name: 'labels',
          downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
        },
      ],
    };
  }
  return { containers: [container] };
}

/** A Service of the kind form factors write (ClusterIP, a selector, one port) or a headless one. */
function serviceSpec(name: string, variant: number): Json {
  const spec: Json = {
    selector: { app: name },
    ports: [{ name: 'http', port: 80, targetPort: 8080 + (variant % 2), protocol: 'TCP' }],
  };
  if (variant === 4) spec.clusterIP = 'None';
  if (variant === 5)
    spec.ports = [
      { name: 'http', port: 80 },
      { name: 'metrics', port: 9090, protocol: 'UDP' },
    ];
  return spec;
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { level: value };
  return value;
}

/** The object's metadata, to change in place. */
function metadataOf(object: Json): Json {
  return object.metadata as Json;
}

/** An invalid value of the kind kube-apiserver validates: a label value, Secret data, an env name. */
function invalidate(resource: Resource, object: Json, variant: number): void {
  if (resource === 'secrets') {
    object.data = { key: variant % 2 === 0 ? 'not base64' : 'aGVsbG8' };
    return;
  }
  if (resource === 'deployments') {
    const spec = object.spec as { template: { spec: { containers: Json[] } } };
    const podSpec = spec.template.spec as Json;
    const container = spec.template.spec.containers[0] as Json;
    switch (variant) {
      case 2:
        container.readinessProbe = { exec: { command: ['true'] }, httpGet: { port: 0 } };
        break;
      case 3:
        container.resources = { limits: { cpu: '1' }, requests: { cpu: '2', 'example.com/gpu': '1' } };
        break;
      case 4:
        podSpec.volumes = [
          { name: 'scratch', emptyDir: { sizeLimit: '-1Gi' } },
          { name: 'claim', persistentVolumeClaim: {} },
        ];
        break;
      case 5:
        container.resources = { limits: { memory: 'lots' } };
        break;
      default:
        container.env = [variant % 2 === 0 ? { name: 'MY=VAR', value: 'x' } : { name: 'x', valueFrom: {} }];
    }
    return;
  }
  const spec = object.spec as Json;
  switch (resource) {
    case 'services':
      invalidateService(spec, variant);
      return;
    case 'events':
      if (variant % 2 === 0) object.type = 'Bogus';
      else (object.involvedObject as Json).namespace = 'elsewhere';
      return;
    case 'leases':
      if (variant % 3 === 0) spec.leaseDurationSeconds = 0;
      else if (variant % 3 === 1) spec.leaseTransitions = -1;
      else spec.renewTime = '2026-01-01T00:00:00Z';
      return;
    case 'widgets':
      if (variant % 3 === 0) spec.size = -1;
      else if (variant % 3 === 1) spec.color = 'green';
      else
        spec.ports = [
          { name: 'http', port: 1 },
          { name: 'http', port: 2 },
        ];
      return;
    case 'crdregistrations': {
      const workload = spec.workload as { formFactor: { deployment: Json } };
      if (variant % 3 === 0) spec.crd = '';
      else if (variant % 3 === 1) workload.formFactor.deployment.service = { port: 0, targetPort: 8080 };
      else delete spec.workload;
      return;
    }
    default:
      metadataOf(object).labels = { tier: 'not a valid label value!' };
  }
}

/** The Service mistakes: a port out of range, unnamed or duplicate ports, an unknown protocol or type. */
function invalidateService(spec: Json, variant: number): void {
  const ports = spec.ports as Json[];
  switch (variant % 6) {
    case 0:
      ports[0]!.port = 0;
      break;
    case 1:
      spec.ports = [{ port: 80 }, { port: 81 }];
      break;
    case 2:
      ports[0]!.protocol = 'ICMP';
      break;
    case 3:
      spec.type = 'Bogus';
      break;
    case 4:
      ports[0]!.name = 'HTTP_port';
      break;
    default:
      spec.ports = [ports[0], { ...ports[0] }];
  }
}

/**
 * A change of a field that may not change: a Service's cluster IP, a Deployment's selector, a Secret's
 * type; a ConfigMap made immutable (later changes of its data are refused).
 */
function changeImmutable(resource: Resource, object: Json): void {
  const spec = object.spec as Json;
  switch (resource) {
    case 'services':
      // Headless: a PUT that creates the Service allocates no address (a fixed IP would be taken on a
      // shared cluster by the first sequence that creates it).
      spec.clusterIP = 'None';
      break;
    case 'deployments': {
      spec.selector = { matchLabels: { app: 'other' } };
      ((spec.template as Json).metadata as Json).labels = { app: 'other' };
      break;
    }
    case 'secrets':
      object.type = 'example.com/other';
      break;
    case 'configmaps':
      object.immutable = true;
      break;
    default:
      break;
  }
}

/** A Service of another type: NodePort, LoadBalancer or ExternalName. */
function changeType(resource: Resource, object: Json, variant: number): void {
  if (resource !== 'services') return;
  const spec = object.spec as Json;
  const type = ['NodePort', 'LoadBalancer', 'ExternalName'][variant % 3];
  spec.type = type;
  if (type === 'ExternalName') spec.externalName = 'backend.example.com';
}

/** A body with the mistake applied (mistakes that are not about the body leave it valid). */
export function objectWith(resource: Resource, name: string, variant: number, mistake: Mistake): Json {
  const object = validObject(resource, name, variant);
  const metadata = metadataOf(object);
  switch (mistake) {
    case 'resource-version-on-create':
      metadata.resourceVersion = variant % 3 === 0 ? '0' : '12345';
      break;
    case 'uid-on-create':
    case 'uid-precondition':
      metadata.uid = '00000000-0000-0000-0000-000000000001';
      break;
    case 'stale-resource-version':
      metadata.resourceVersion = '$STALE_RV';
      break;
    case 'wrong-kind':
      object.kind = resource === 'secrets' ? 'ConfigMap' : 'Secret';
      break;
    case 'wrong-api-version':
      object.apiVersion = resource === 'deployments' ? 'apps/v1beta1' : 'v2';
      break;
    case 'generate-name':
      delete metadata.name;
      metadata.generateName = `${objectName(resource, name)}-`;
      break;
    case 'finalizers':
      metadata.finalizers = [HOLD_FINALIZER];
      break;
    case 'deletion-timestamp':
      metadata.deletionTimestamp = '2020-01-01T00:00:00Z';
      break;
    case 'managed-fields':
      metadata.managedFields = [
        {
          manager: 'someone',
          operation: 'Update',
          apiVersion: kindOf(resource).apiVersion,
          time: '2020-01-01T00:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { 'f:tier': {} } } },
        },
      ];
      break;
    case 'missing-owner':
      // A cluster-scoped object's owner is cluster-scoped too (a namespaced one is never resolved).
      metadata.ownerReferences = [
        CLUSTER_SCOPED.includes(resource)
          ? { apiVersion: 'v1', kind: 'Namespace', name: 'gone', uid: '00000000-0000-0000-0000-00000000dead' }
          : {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: 'gone',
              uid: '00000000-0000-0000-0000-00000000dead',
            },
      ];
      break;
    case 'oversized':
      metadata.annotations = { big: 'x'.repeat(variant % 2 === 0 ? 262_100 : 300_000) };
      break;
    case 'deeply-nested':
      object.extra = nested(40 + (variant % 3) * 40);
      break;
    case 'unknown-field':
      object.unknownField = { a: variant };
      break;
    case 'invalid-value':
      invalidate(resource, object, variant);
      break;
    case 'immutable-field':
      changeImmutable(resource, object);
      break;
    case 'type-change':
      changeType(resource, object, variant);
      break;
    default:
      break;
  }
  return object;
}

/** A body for an update (PUT): the current version unless the mistake says otherwise. */
export function updateBody(resource: Resource, name: string, variant: number, mistake: Mistake): Json {
  const object = objectWith(resource, name, variant, mistake);
  const metadata = metadataOf(object);
  if (mistake !== 'stale-resource-version' && mistake !== 'missing-resource-version')
    metadata.resourceVersion = CURRENT_RV;
  return object;
}
