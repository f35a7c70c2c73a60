/**
 * One generated case of the render-equals-controller property: a registration (form factor, env
 * options, selectors, hook and failure policy, statusConfiguration), its CRD's status schema, the
 * objects its env reads, an instance, the pre-reconcile hook's answer, and what the children
 * report once written. Plain data: case-objects.ts turns it into the objects both sides are given.
 */
import fc from 'fast-check';

/** Few distinct keys, so that generated paths meet the instance's spec, each other and generated names. */
export const SPEC_KEYS = ['a', 'b', 'A', 'a-b', 'port', 'x.y'] as const;
const SEGMENTS = SPEC_KEYS.filter((key) => !key.includes('.'));

/** Names the API server accepts where a value names a ConfigMap, a Secret or one of their keys. */
const OBJECT_NAMES = ['cm-a', 'cm-b', 'sec-a'] as const;
const DATA_KEYS = ['k1', 'k2', 'flags'] as const;

export interface FormFactorCase {
  kind: 'deployment' | 'knativeService';
  block: Record<string, unknown>;
}

export type HookAnswer =
  | { kind: 'no-content' }
  | {
      kind: 'success';
      status?: Record<string, unknown>;
      objectChanges?: 'spec' | 'labels';
      children?: ChildrenChange;
    }
  | { kind: 'garbage'; body: string }
  | { kind: 'too-deep' }
  | {
      kind: 'error';
      status: number;
      body: Record<string, unknown> | string;
      retryAfterSeconds?: number;
    }
  | { kind: 'reset' };

/** What a hook does to the children map it was sent (docs/spec/hooks-v1.md §5.3). */
export type ChildrenChange =
  | { kind: 'replicas'; replicas: number }
  | { kind: 'label'; value: string }
  | { kind: 'extra-service' }
  | { kind: 'drop-first' }
  | { kind: 'foreign-kind' };

/** What a written child reports (its status), for the second reconcile. */
export interface ObservedCase {
  /** The Deployment's Available condition, or the Knative Service's Ready. */
  condition: 'True' | 'False' | 'Unknown' | 'Maybe' | 'absent';
  reason: string;
  message: string;
  /** The Knative Service's status.address.url. */
  url?: string;
}

/** One instance of a case's registration, with what its hook answers and its children report. */
export interface InstanceCase {
  spec: unknown;
  labels: Record<string, string>;
  /** Another controller's finalizer; Scoby's own (left by an earlier hook with finalize). */
  finalizers: string[];
  /** An object of another owner under the name of its first child (§5.1: ApplyFailed). */
  squatter: boolean;
  answer: HookAnswer;
  observed: ObservedCase;
}

export interface PlanCase {
  formFactor: FormFactorCase;
  parameterConfiguration: Record<string, unknown>;
  statusAdd: { path: string; valueFrom: { path: string } }[];
  conditionsFromHook: string[];
  selector: Record<string, unknown> | undefined;
  namespaceSelector: Record<string, unknown> | undefined;
  hook?: { capabilities: string[]; failurePolicy?: 'Fail' | 'Ignore' };
  /** The registered CRD's status: any field, none at all, or conditions and observedGeneration only. */
  crdStatus: 'preserve' | 'none' | 'conditions-only';
  namespaceLabels: Record<string, string>;
  /** Scoby's ConfigMap `flags-<case>` (env.md §6.6); absent: not there. */
  controllerConfigMap?: Record<string, string>;
  /** A Service `sink` in the namespace, which resolveAddress refs may name. */
  sinkService: boolean;
  /** Instances of the registration, `w0`, `w1`, …: several share the registration's start-up. */
  instances: InstanceCase[];
}

const text = fc.constantFrom('', 'a', 'cm-a', 'k1', 'x y', '$(A)', 'é', '0');
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -3, max: 70_000 }),
    fc.constantFrom(0.25, 1e21),
    text,
    fc.constantFrom(...OBJECT_NAMES, ...DATA_KEYS),
    fc.array(tie('value'), { maxLength: 3 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.constantFrom(...SPEC_KEYS), tie('value'), { maxKeys: 4 }),
})).object as fc.Arbitrary<unknown>;

const destination = fc.oneof(
  fc.constant({ uri: 'http://collector.example/events' }),
  fc.constant({ ref: { apiVersion: 'v1', kind: 'Service', name: 'sink' } }),
  fc.constant({ ref: { apiVersion: 'v1', kind: 'Service', name: 'missing' } }),
  fc.constant('not-an-object'),
);

const instanceSpec = fc.oneof(
  { weight: 6, arbitrary: json },
  // Values the env options read, where they read them.
  {
    weight: 4,
    arbitrary: fc
      .record({
        base: json,
        ref: fc.record({ name: fc.constantFrom(...OBJECT_NAMES, ''), key: fc.constantFrom(...DATA_KEYS) }),
        sink: destination,
      })
      .map(({ base, ref, sink }) => ({ ...(base as object), ref, sink })),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, 'not-an-object') },
);

const segments = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 2 });
const specPath = fc.oneof(
  { weight: 4, arbitrary: segments.map((keys) => `spec.${keys.join('.')}`) },
  { weight: 1, arbitrary: fc.constantFrom('spec.ref', 'spec.sink', '$.spec.a', '.spec.b') },
);

const selectorRef = fc.record(
  {
    name: fc.constantFrom(...OBJECT_NAMES),
    key: fc.constantFrom(...DATA_KEYS),
    optional: fc.boolean(),
  },
  { requiredKeys: ['name', 'key'] },
);

const toEnv = fc.record(
  {
    path: specPath,
    name: fc.constantFrom('NAMED', 'A', 'PORT'),
    default: fc.oneof(
      fc.record({ value: text }),
      fc.record({ configMap: selectorRef }),
      fc.record({ secret: selectorRef }),
    ),
    valueFrom: fc.oneof(
      fc.constant({ configMapPath: { name: 'spec.ref.name', key: 'spec.ref.key' } }),
      fc.constant({ secretPath: { name: 'spec.ref.name', key: 'spec.ref.key', optional: true } }),
      fc.constant({ builtInFunc: { name: 'resolveAddress' } }),
    ),
  },
  { requiredKeys: ['path'] },
);

const mountFrom = fc.oneof(
  fc.constant({ configMapPath: { name: 'spec.ref.name', items: [{ key: 'spec.ref.key', path: 'k' }] } }),
  fc.constant({ secretPath: { secretName: 'spec.ref.name', defaultMode: 256 } }),
);

const addToEnv = fc.oneof(
  fc.record({ value: text }),
  fc.constant({ valueFrom: { field: { fieldPath: 'metadata.namespace' } } }),
  selectorRef.map((ref) => ({ valueFrom: { configMap: ref } })),
  selectorRef.map((ref) => ({ valueFrom: { secret: ref } })),
  fc.record({ key: fc.constantFrom(...DATA_KEYS), optional: fc.boolean() }).map(({ key, optional }) => ({
    valueFromControllerConfigMap: { name: 'FLAGS_CONFIGMAP', key, optional },
  })),
);

/** Valid by construction: unique instruction paths per kind, unique explicit and add names, unique volumes. */
const parameterConfiguration = fc
  .record({
    prefix: fc.constantFrom(undefined, '', 'P_'),
    skip: fc.uniqueArray(specPath, { maxLength: 2 }),
    toEnv: fc.uniqueArray(toEnv, { maxLength: 3, selector: (entry) => entry.path.replace(/^\$?\./, '') }),
    toVolume: fc.uniqueArray(fc.record({ path: specPath, mountFrom }), {
      maxLength: 1,
      selector: (entry) => entry.path.replace(/^\$?\./, ''),
    }),
    add: fc.array(addToEnv, { maxLength: 3 }),
  })
  .map(({ prefix, skip, toEnv: env, toVolume, add }) => {
    const explicit = new Set<string>();
    const fromSpecEnv = env.map((entry) => {
      if (entry.name === undefined || explicit.has(entry.name)) {
        const { name: _name, ...rest } = entry;
        return rest;
      }
      explicit.add(entry.name);
      return entry;
    });
    const addEnv = add.map((entry, index) => ({ name: `ADD_${index}`, ...entry }));
    return {
      ...(prefix === undefined ? {} : { global: { defaultPrefix: prefix } }),
      fromSpec: {
        ...(skip.length > 0 ? { skip: skip.map((path) => ({ path })) } : {}),
        ...(fromSpecEnv.length > 0 ? { toEnv: fromSpecEnv } : {}),
        ...(toVolume.length > 0
          ? {
              toVolume: toVolume.map((entry, index) => ({
                ...entry,
                name: `vol-${index}`,
                mountPath: `/etc/vol-${index}`,
              })),
            }
          : {}),
      },
      ...(addEnv.length > 0 ? { add: { toEnv: addEnv } } : {}),
    };
  });

const formFactor: fc.Arbitrary<FormFactorCase> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record(
        {
          replicas: fc.integer({ min: 0, max: 3 }),
          service: fc.record({ port: fc.constantFrom(80, 8080), targetPort: fc.constantFrom(8080, 9000) }),
        },
        { requiredKeys: [] },
      )
      .map((block) => ({ kind: 'deployment' as const, block })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          minScale: fc.integer({ min: 0, max: 2 }),
          maxScale: fc.integer({ min: 1, max: 5 }),
          visibility: fc.constantFrom('cluster-local', 'public'),
        },
        { requiredKeys: [] },
      )
      .map((block) => ({ kind: 'knativeService' as const, block })),
  },
);

const labelValue = fc.constantFrom('prod', 'dev');
const selector = fc.oneof(
  fc.record({ matchLabels: fc.record({ track: labelValue }) }),
  fc.constant({ matchExpressions: [{ key: 'track', operator: 'Exists' }] }),
  fc.constant({ matchExpressions: [{ key: 'legacy', operator: 'DoesNotExist' }] }),
  fc.record({
    matchExpressions: fc
      .tuple(labelValue)
      .map(([value]) => [{ key: 'track', operator: 'In', values: [value] }]),
  }),
);

const hookCondition = fc.record(
  {
    type: fc.constantFrom('QuotaChecked', 'Audited'),
    status: fc.constantFrom('True', 'False', 'Unknown', 'Maybe'),
    reason: fc.constantFrom('', 'Checked', 'Over'),
    message: fc.constantFrom('', 'quota left', 'over quota'),
  },
  { requiredKeys: ['type'] },
);

const childrenChange: fc.Arbitrary<ChildrenChange> = fc.oneof(
  fc.integer({ min: 0, max: 4 }).map((replicas) => ({ kind: 'replicas' as const, replicas })),
  labelValue.map((value) => ({ kind: 'label' as const, value })),
  fc.constant({ kind: 'extra-service' as const }),
  fc.constant({ kind: 'drop-first' as const }),
  fc.constant({ kind: 'foreign-kind' as const }),
);

const errorBody = fc.oneof(
  fc.record(
    {
      message: fc.constantFrom('', 'quota service down', 'no'),
      permanent: fc.boolean(),
      continue: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom('plain text failure', '<html>bad gateway</html>', ''),
);

export const hookAnswer: fc.Arbitrary<HookAnswer> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'no-content' as const }) },
  {
    weight: 5,
    arbitrary: fc
      .record(
        {
          status: fc.oneof(
            fc.record(
              {
                conditions: fc.array(hookCondition, { maxLength: 3 }),
                phase: fc.constantFrom('Pending', 'Done'),
              },
              { requiredKeys: [] },
            ),
            fc.constant({ conditions: 'not-a-list' }),
          ),
          objectChanges: fc.constantFrom('spec' as const, 'labels' as const),
          children: childrenChange,
        },
        { requiredKeys: [] },
      )
      .map((answer) => ({ kind: 'success' as const, ...answer })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('not json', '[1,2]', '"text"', '{"object": 5}', '{"object": {"status": []}}')
      .map((body) => ({ kind: 'garbage' as const, body })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'too-deep' as const }) },
  {
    weight: 5,
    arbitrary: fc
      .record(
        {
          status: fc.constantFrom(400, 403, 409, 429, 500, 502, 503),
          body: errorBody,
          retryAfterSeconds: fc.integer({ min: 0, max: 3 }),
        },
        { requiredKeys: ['status', 'body'] },
      )
      .map((answer) => ({ kind: 'error' as const, ...answer })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

const observed: fc.Arbitrary<ObservedCase> = fc.record(
  {
    condition: fc.constantFrom('True', 'False', 'Unknown', 'Maybe', 'absent'),
    reason: fc.constantFrom('', 'MinimumReplicasUnavailable', 'RevisionFailed'),
    message: fc.constantFrom('', 'Deployment does not have minimum availability.'),
    url: fc.constantFrom('http://fn.shop.example.com', ''),
  },
  { requiredKeys: ['condition', 'reason', 'message'] },
);

/** Absent six times in seven: a selector that does not match ends the case before the plan. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

export const planCase: fc.Arbitrary<PlanCase> = fc.record(
  {
    formFactor,
    parameterConfiguration,
    statusAdd: fc.uniqueArray(
      fc.record({
        path: fc.constantFrom('status.sinkUri', 'status.a.b', 'status.port', 'status.address.url'),
        valueFrom: fc.record({ path: specPath }),
      }),
      { maxLength: 2, selector: (entry) => entry.path },
    ),
    conditionsFromHook: fc.uniqueArray(fc.constantFrom('QuotaChecked', 'Audited'), { maxLength: 2 }),
    selector: sometimes(selector),
    namespaceSelector: sometimes(selector),
    hook: fc.record(
      {
        capabilities: fc.subarray(['pre-reconcile', 'finalize']),
        failurePolicy: fc.constantFrom('Fail' as const, 'Ignore' as const),
      },
      { requiredKeys: ['capabilities'] },
    ),
    crdStatus: fc.constantFrom(
      'preserve' as const,
      'preserve' as const,
      'none' as const,
      'conditions-only' as const,
    ),
    instances: fc.array(
      fc.record({
        spec: instanceSpec,
        labels: fc.dictionary(fc.constantFrom('track', 'legacy'), labelValue, { maxKeys: 2 }),
        finalizers: fc.subarray(['example.com/other', 'scoby.triggermesh.io/finalizer']),
        squatter: fc.integer({ min: 0, max: 9 }).map((draw) => draw < 2),
        answer: hookAnswer,
        observed,
      }),
      { minLength: 1, maxLength: 3 },
    ),
    namespaceLabels: fc.dictionary(fc.constantFrom('track'), labelValue, { maxKeys: 1 }),
    controllerConfigMap: fc.dictionary(fc.constantFrom(...DATA_KEYS), text, { maxKeys: 2 }),
    sinkService: fc.boolean(),
  },
  {
    requiredKeys: [
      'formFactor',
      'parameterConfiguration',
      'statusAdd',
      'conditionsFromHook',
      'selector',
      'namespaceSelector',
      'crdStatus',
      'instances',
      'namespaceLabels',
      'sinkService',
    ],
  },
);
