/**
 * Seeded generation of request sequences over the verbs and resources Scoby touches, with the client
 * mistakes of objects.ts, as fast-check arbitraries (so failing sequences shrink).
 */
import fc from 'fast-check';
import { HOLD_FINALIZER, objectWith, TIERS, updateBody, validObject } from './objects.ts';
import {
  CLUSTER_SCOPED,
  CURRENT_RV,
  CURRENT_UID,
  kindOf,
  objectName,
  RESOURCES,
  SEQUENCE,
  STALE_RV,
  WITH_STATUS,
  type Mistake,
  type Resource,
  type Step,
  type Verb,
} from './model.ts';

const NAMES = ['a', 'b'] as const;
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const JSON_BODY = 'application/json';

interface Choice {
  resource: Resource;
  name: string;
  variant: number;
}

const choice = (resources: readonly Resource[]): fc.Arbitrary<Choice> =>
  fc.record({
    resource: fc.constantFrom(...resources),
    name: fc.constantFrom(...NAMES),
    variant: fc.nat({ max: 5 }),
  });

const ALL: readonly Resource[] = RESOURCES;

/** The path of the step's object below the namespace (or the cluster, for cluster-scoped resources). */
function objectPath({ resource, name }: Choice, subresource = ''): string {
  return `${resource}/${objectName(resource, name)}${subresource}`;
}

/** A list's label selector; a cluster-scoped resource's also selects the sequence. */
function selecting(resource: Resource, selector: string): string {
  return CLUSTER_SCOPED.includes(resource) ? `${selector},sequence=${SEQUENCE}` : selector;
}

function step(
  verb: Verb,
  mistake: Mistake,
  { resource, name }: Choice,
  request: Omit<Step, 'verb' | 'mistake' | 'resource' | 'name'>,
): Step {
  return { verb, mistake, resource, name, ...request };
}

function dryRunQuery(mistake: Mistake): Record<string, string> {
  return mistake === 'dry-run' ? { dryRun: 'All' } : {};
}

const CREATE_MISTAKES: Mistake[] = [
  'none',
  'none',
  'none',
  'dry-run',
  'resource-version-on-create',
  'uid-on-create',
  'wrong-kind',
  'wrong-api-version',
  'generate-name',
  'finalizers',
  'deletion-timestamp',
  'managed-fields',
  'missing-owner',
  'oversized',
  'deeply-nested',
  'unknown-field',
  'invalid-value',
];

const create = fc.tuple(choice(ALL), fc.constantFrom(...CREATE_MISTAKES)).map(([chosen, mistake]) =>
  step('create', mistake, chosen, {
    method: 'POST',
    path: chosen.resource,
    query: dryRunQuery(mistake),
    contentType: JSON_BODY,
    body: JSON.stringify(objectWith(chosen.resource, chosen.name, chosen.variant, mistake)),
  }),
);

const get = choice(ALL).map((chosen) =>
  step('get', 'none', chosen, { method: 'GET', path: objectPath(chosen), query: {} }),
);

const list = fc
  .tuple(choice(ALL), fc.constantFrom<Mistake>('none', 'label-selector', 'field-selector'))
  .map(([chosen, mistake]) => {
    const query: Record<string, string> =
      mistake === 'label-selector'
        ? { labelSelector: selecting(chosen.resource, `tier=${TIERS[chosen.variant % 2]}`) }
        : mistake === 'field-selector'
          ? {
              fieldSelector: `metadata.name=${objectName(chosen.resource, chosen.name)}`,
              ...(CLUSTER_SCOPED.includes(chosen.resource)
                ? { labelSelector: selecting(chosen.resource, 'run=differential') }
                : {}),
            }
          : { labelSelector: selecting(chosen.resource, 'run=differential') };
    return step('list', mistake, chosen, { method: 'GET', path: chosen.resource, query });
  });

const UPDATE_MISTAKES: Mistake[] = [
  'none',
  'none',
  'dry-run',
  'stale-resource-version',
  'missing-resource-version',
  'uid-precondition',
  'wrong-kind',
  'finalizers',
  'deletion-timestamp',
  'managed-fields',
  'unknown-field',
  'invalid-value',
  'missing-owner',
  'immutable-field',
  'type-change',
];

const update = fc.tuple(choice(ALL), fc.constantFrom(...UPDATE_MISTAKES)).map(([chosen, mistake]) =>
  step('update', mistake, chosen, {
    method: 'PUT',
    path: objectPath(chosen),
    query: dryRunQuery(mistake),
    contentType: JSON_BODY,
    body: JSON.stringify(updateBody(chosen.resource, chosen.name, chosen.variant, mistake)),
  }),
);

/** A merge or strategic patch: labels and a value, or the mistake's fields. */
function mergeBody(chosen: Choice, mistake: Mistake): unknown {
  const labels = { tier: TIERS[chosen.variant % 2] };
  const change = mergeChange(chosen);
  switch (mistake) {
    case 'immutable-field':
      return immutableChange(chosen.resource);
    case 'type-change':
      return chosen.resource === 'services'
        ? {
            spec: {
              type: chosen.variant % 2 === 0 ? 'NodePort' : 'ExternalName',
              externalName: 'x.example.com',
            },
          }
        : change;
    case 'finalizers':
      // Holding, then letting go: a deleted object held by the finalizer is released.
      return { metadata: { finalizers: chosen.variant % 2 === 0 ? [HOLD_FINALIZER] : null } };
    case 'stale-resource-version':
      return { metadata: { labels, resourceVersion: STALE_RV } };
    case 'deletion-timestamp':
      return { metadata: { deletionTimestamp: '2020-01-01T00:00:00Z' } };
    case 'invalid-value':
      return invalidChange(chosen.resource);
    case 'unknown-field':
      return { ...change, unknownField: 1 };
    case 'managed-fields':
      return { metadata: { managedFields: [] } };
    default:
      return { metadata: { labels }, ...change };
  }
}

/** A valid change per resource, for merge and strategic patches. */
function mergeChange({ resource, variant }: Choice): Record<string, unknown> {
  switch (resource) {
    case 'deployments':
      return { spec: { replicas: variant % 3 } };
    case 'services':
      return { spec: { ports: [{ name: 'http', port: 80 + (variant % 2), targetPort: 9000 }] } };
    case 'events':
      return { message: `patched-${variant}`, count: variant + 2 };
    case 'leases':
      return { spec: { holderIdentity: `candidate-${variant % 3}`, leaseTransitions: variant + 1 } };
    case 'widgets':
      return { spec: { size: variant + 1, tags: [`patched-${variant}`] } };
    case 'crdregistrations':
      return { spec: { workload: { formFactor: { deployment: { replicas: variant % 3 } } } } };
    case 'secrets':
      return { data: { key: 'dmFsdWU=' } };
    case 'configmaps':
      return { data: { key: `patched-${variant}` } };
  }
}

/** A value kube-apiserver refuses, per resource. */
function invalidChange(resource: Resource): Record<string, unknown> {
  switch (resource) {
    case 'secrets':
      return { data: { key: 'not base64' } };
    case 'deployments':
      return { spec: { replicas: -1 } };
    case 'services':
      return { spec: { ports: [{ name: 'http', port: 70000 }] } };
    case 'events':
      return { type: 'Sometimes' };
    case 'leases':
      return { spec: { leaseDurationSeconds: -5 } };
    case 'widgets':
      return { spec: { size: 1000 } };
    case 'crdregistrations':
      return { spec: { crd: '' } };
    case 'configmaps':
      return { metadata: { labels: { tier: '-bad-' } } };
  }
}

/** A change of a field that may not change, as a merge patch. */
function immutableChange(resource: Resource): Record<string, unknown> {
  switch (resource) {
    case 'services':
      return { spec: { clusterIP: 'None' } };
    case 'deployments':
      return { spec: { selector: { matchLabels: { app: 'other' } } } };
    case 'secrets':
      return { type: 'example.com/other' };
    case 'configmaps':
      return { immutable: true };
    case 'events':
      return { involvedObject: { name: 'other' } };
    default:
      return { metadata: { labels: { tier: 'front' } } };
  }
}

const PATCH_MISTAKES: Mistake[] = [
  'none',
  'none',
  'dry-run',
  'finalizers',
  'finalizers',
  'stale-resource-version',
  'deletion-timestamp',
  'invalid-value',
  'unknown-field',
  'managed-fields',
  'immutable-field',
  'type-change',
];

const mergePatch = fc
  .tuple(choice(ALL), fc.constantFrom(...PATCH_MISTAKES), fc.boolean())
  .map(([chosen, mistake, strategic]) =>
    step(strategic ? 'patch-strategic' : 'patch-merge', mistake, chosen, {
      method: 'PATCH',
      path: objectPath(chosen),
      query: dryRunQuery(mistake),
      contentType: strategic ? STRATEGIC : MERGE,
      body: JSON.stringify(mergeBody(chosen, mistake)),
    }),
  );

const JSON_PATCH_MISTAKES: Mistake[] = [
  'none',
  'dry-run',
  'invalid-value',
  'stale-resource-version',
  'finalizers',
];

function jsonPatchBody(chosen: Choice, mistake: Mistake): unknown[] {
  switch (mistake) {
    case 'invalid-value':
      // A test that fails, or a path that is not there.
      return chosen.variant % 2 === 0
        ? [{ op: 'test', path: '/metadata/name', value: 'other' }]
        : [{ op: 'remove', path: '/metadata/labels/absent' }];
    case 'stale-resource-version':
      return [{ op: 'replace', path: '/metadata/resourceVersion', value: STALE_RV }];
    case 'finalizers':
      return [
        { op: 'add', path: '/metadata/finalizers', value: chosen.variant % 2 === 0 ? [HOLD_FINALIZER] : [] },
      ];
    default:
      return [
        { op: 'add', path: '/metadata/labels/tier', value: TIERS[chosen.variant % 2] },
        { op: 'test', path: '/metadata/labels/run', value: 'differential' },
      ];
  }
}

const jsonPatch = fc.tuple(choice(ALL), fc.constantFrom(...JSON_PATCH_MISTAKES)).map(([chosen, mistake]) =>
  step('patch-json', mistake, chosen, {
    method: 'PATCH',
    path: objectPath(chosen),
    query: dryRunQuery(mistake),
    contentType: JSON_PATCH,
    body: JSON.stringify(jsonPatchBody(chosen, mistake)),
  }),
);

const APPLY_MISTAKES: Mistake[] = [
  'none',
  'none',
  'force-apply',
  'dry-run',
  'invalid-value',
  'unknown-field',
  'managed-fields',
  'wrong-kind',
];

const apply = fc
  .tuple(choice(ALL), fc.constantFrom(...APPLY_MISTAKES), fc.constantFrom('alice', 'bob'))
  .map(([chosen, mistake, manager]) => {
    const body = objectWith(
      chosen.resource,
      chosen.name,
      chosen.variant,
      mistake === 'force-apply' ? 'none' : mistake,
    );
    return step('patch-apply', mistake, chosen, {
      method: 'PATCH',
      path: objectPath(chosen),
      query: {
        fieldManager: manager,
        ...dryRunQuery(mistake),
        ...(mistake === 'force-apply' ? { force: 'true' } : {}),
      },
      contentType: APPLY,
      body: JSON.stringify(body),
    });
  });

const DEPLOYMENTS: readonly Resource[] = ['deployments'];

/** What a controller writes to the status of each resource with a status subresource. */
function statusOf({ resource, variant }: Choice): Record<string, unknown> {
  switch (resource) {
    case 'services':
      return { loadBalancer: { ingress: [{ ip: `192.0.2.${variant + 1}` }] } };
    case 'widgets':
      return { phase: variant % 2 === 0 ? 'Ready' : 'Pending', observedGeneration: variant };
    case 'crdregistrations':
      return {
        observedGeneration: variant,
        conditions: [
          {
            type: 'Ready',
            status: variant % 2 === 0 ? 'True' : 'False',
            reason: 'Reconciled',
            message: `round ${variant}`,
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      };
    default:
      return { observedGeneration: variant };
  }
}

const status = fc
  .tuple(
    choice(WITH_STATUS),
    fc.constantFrom<Mistake>('none', 'stale-resource-version', 'dry-run'),
    fc.boolean(),
  )
  .map(([chosen, mistake, put]) => {
    const path = objectPath(chosen, '/status');
    if (!put)
      return step('patch-status', mistake === 'stale-resource-version' ? 'none' : mistake, chosen, {
        method: 'PATCH',
        path,
        query: dryRunQuery(mistake),
        contentType: MERGE,
        body: JSON.stringify({
          status: statusOf(chosen),
          metadata: { labels: { tier: 'status' } },
        }),
      });
    const object: Record<string, unknown> = {
      ...validObject(chosen.resource, chosen.name, chosen.variant),
      status: chosen.resource === 'deployments' ? { replicas: chosen.variant } : statusOf(chosen),
    };
    (object.metadata as Record<string, unknown>).resourceVersion =
      mistake === 'stale-resource-version' ? STALE_RV : CURRENT_RV;
    return step('update-status', mistake, chosen, {
      method: 'PUT',
      path,
      query: dryRunQuery(mistake),
      contentType: JSON_BODY,
      body: JSON.stringify(object),
    });
  });

const scale = fc
  .tuple(
    choice(DEPLOYMENTS),
    fc.constantFrom('get', 'put', 'patch'),
    fc.constantFrom<Mistake>('none', 'dry-run', 'invalid-value', 'stale-resource-version'),
  )
  .map(([chosen, how, mistake]) => {
    const path = `deployments/${chosen.name}/scale`;
    if (how === 'get') return step('get-scale', 'none', chosen, { method: 'GET', path, query: {} });
    const replicas = mistake === 'invalid-value' ? -2 : chosen.variant % 3;
    if (how === 'patch')
      return step('patch-scale', mistake === 'stale-resource-version' ? 'none' : mistake, chosen, {
        method: 'PATCH',
        path,
        query: dryRunQuery(mistake),
        contentType: MERGE,
        body: JSON.stringify({ spec: { replicas } }),
      });
    return step('update-scale', mistake, chosen, {
      method: 'PUT',
      path,
      query: dryRunQuery(mistake),
      contentType: JSON_BODY,
      body: JSON.stringify({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: {
          name: chosen.name,
          ...(mistake === 'stale-resource-version' ? { resourceVersion: STALE_RV } : {}),
        },
        spec: { replicas },
      }),
    });
  });

const DELETE_MISTAKES: Mistake[] = [
  'none',
  'none',
  'dry-run',
  'uid-precondition',
  'resource-version-precondition',
  'propagation-policy',
];

const remove = fc
  .tuple(
    choice(ALL),
    fc.constantFrom(...DELETE_MISTAKES),
    fc.boolean(),
    fc.constantFrom('Foreground', 'Background', 'Orphan'),
  )
  .map(([chosen, mistake, current, policy]) => {
    const options: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
    if (mistake === 'uid-precondition')
      options.preconditions = { uid: current ? CURRENT_UID : '00000000-0000-0000-0000-000000000002' };
    if (mistake === 'resource-version-precondition')
      options.preconditions = { resourceVersion: current ? CURRENT_RV : STALE_RV };
    if (mistake === 'propagation-policy') options.propagationPolicy = policy;
    if (mistake === 'dry-run') options.dryRun = ['All'];
    return step('delete', mistake, chosen, {
      method: 'DELETE',
      path: objectPath(chosen),
      query: {},
      contentType: JSON_BODY,
      body: JSON.stringify(options),
    });
  });

/** One request; creates are likelier, so that most requests meet an object. */
export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: create, weight: 5 },
  { arbitrary: get, weight: 2 },
  { arbitrary: list, weight: 2 },
  { arbitrary: update, weight: 3 },
  { arbitrary: mergePatch, weight: 3 },
  { arbitrary: jsonPatch, weight: 2 },
  { arbitrary: apply, weight: 3 },
  { arbitrary: status, weight: 1 },
  { arbitrary: scale, weight: 2 },
  { arbitrary: remove, weight: 3 },
);

export function sequenceArbitrary(maxLength: number): fc.Arbitrary<Step[]> {
  return fc.array(stepArbitrary, { minLength: 1, maxLength, size: 'max' });
}

export { kindOf };
