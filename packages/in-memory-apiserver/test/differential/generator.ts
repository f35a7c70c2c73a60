/**
 * Seeded generation of request sequences over the verbs and resources Scoby touches, with the client
 * mistakes of objects.ts, as fast-check arbitraries (so failing sequences shrink).
 */
import fc from 'fast-check';
import { HOLD_FINALIZER, objectWith, TIERS, updateBody, validObject } from './objects.ts';
import {
  CURRENT_RV,
  CURRENT_UID,
  kindOf,
  STALE_RV,
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

const ALL: readonly Resource[] = ['configmaps', 'secrets', 'deployments'];

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
  step('get', 'none', chosen, { method: 'GET', path: `${chosen.resource}/${chosen.name}`, query: {} }),
);

const list = fc
  .tuple(choice(ALL), fc.constantFrom<Mistake>('none', 'label-selector', 'field-selector'))
  .map(([chosen, mistake]) => {
    const query: Record<string, string> =
      mistake === 'label-selector'
        ? { labelSelector: `tier=${TIERS[chosen.variant % 2]}` }
        : mistake === 'field-selector'
          ? { fieldSelector: `metadata.name=${chosen.name}` }
          : { labelSelector: 'run=differential' };
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
];

const update = fc.tuple(choice(ALL), fc.constantFrom(...UPDATE_MISTAKES)).map(([chosen, mistake]) =>
  step('update', mistake, chosen, {
    method: 'PUT',
    path: `${chosen.resource}/${chosen.name}`,
    query: dryRunQuery(mistake),
    contentType: JSON_BODY,
    body: JSON.stringify(updateBody(chosen.resource, chosen.name, chosen.variant, mistake)),
  }),
);

/** A merge or strategic patch: labels and a value, or the mistake's fields. */
function mergeBody(chosen: Choice, mistake: Mistake): unknown {
  const labels = { tier: TIERS[chosen.variant % 2] };
  const change =
    chosen.resource === 'deployments'
      ? { spec: { replicas: chosen.variant % 3 } }
      : { data: { key: chosen.resource === 'secrets' ? 'dmFsdWU=' : `patched-${chosen.variant}` } };
  switch (mistake) {
    case 'finalizers':
      // Holding, then letting go: a deleted object held by the finalizer is released.
      return { metadata: { finalizers: chosen.variant % 2 === 0 ? [HOLD_FINALIZER] : null } };
    case 'stale-resource-version':
      return { metadata: { labels, resourceVersion: STALE_RV } };
    case 'deletion-timestamp':
      return { metadata: { deletionTimestamp: '2020-01-01T00:00:00Z' } };
    case 'invalid-value':
      return chosen.resource === 'secrets'
        ? { data: { key: 'not base64' } }
        : chosen.resource === 'deployments'
          ? { spec: { replicas: -1 } }
          : { metadata: { labels: { tier: '-bad-' } } };
    case 'unknown-field':
      return { ...change, unknownField: 1 };
    case 'managed-fields':
      return { metadata: { managedFields: [] } };
    default:
      return { metadata: { labels }, ...change };
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
];

const mergePatch = fc
  .tuple(choice(ALL), fc.constantFrom(...PATCH_MISTAKES), fc.boolean())
  .map(([chosen, mistake, strategic]) =>
    step(strategic ? 'patch-strategic' : 'patch-merge', mistake, chosen, {
      method: 'PATCH',
      path: `${chosen.resource}/${chosen.name}`,
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
    path: `${chosen.resource}/${chosen.name}`,
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
      path: `${chosen.resource}/${chosen.name}`,
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

const status = fc
  .tuple(
    choice(DEPLOYMENTS),
    fc.constantFrom<Mistake>('none', 'stale-resource-version', 'dry-run'),
    fc.boolean(),
  )
  .map(([chosen, mistake, put]) => {
    const path = `deployments/${chosen.name}/status`;
    if (!put)
      return step('patch-status', mistake === 'stale-resource-version' ? 'none' : mistake, chosen, {
        method: 'PATCH',
        path,
        query: dryRunQuery(mistake),
        contentType: MERGE,
        body: JSON.stringify({
          status: { observedGeneration: chosen.variant },
          metadata: { labels: { tier: 'status' } },
        }),
      });
    const object: Record<string, unknown> = {
      ...validObject('deployments', chosen.name, chosen.variant),
      status: { replicas: chosen.variant },
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
      path: `${chosen.resource}/${chosen.name}`,
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
