/** The bodies the generator writes: a valid object per resource and the mistakes applied to one. */
import { CURRENT_RV, kindOf, type Mistake, type Resource } from './model.ts';

export type Json = Record<string, unknown>;

export const TIERS = ['front', 'back'] as const;
export const HOLD_FINALIZER = 'example.com/hold';

/** A valid object of the resource; `variant` changes its labels and values. */
export function validObject(resource: Resource, name: string, variant: number): Json {
  const metadata = { name, labels: { tier: TIERS[variant % 2], run: 'differential' } };
  const value = `value-${variant}`;
  switch (resource) {
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
            spec: {
              containers: [
                {
                  name: 'main',
                  image: `registry.example/app:${variant % 4}`,
                  env: [{ name: 'VALUE', value }],
                },
              ],
            },
          },
        },
      };
  }
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
    const container = spec.template.spec.containers[0] as Json;
    container.env = [variant % 2 === 0 ? { name: 'MY=VAR', value: 'x' } : { name: 'x', valueFrom: {} }];
    return;
  }
  metadataOf(object).labels = { tier: 'not a valid label value!' };
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
      metadata.generateName = `${name}-`;
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
      metadata.ownerReferences = [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: '00000000-0000-0000-0000-00000000dead' },
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
