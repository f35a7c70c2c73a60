/**
 * Generated input for the fuzz scenario, from fast-check with the run's seed: CRDRegistration specs
 * mutated from a valid one (each mutation sets or deletes one to three fields, usually with a value
 * of the field's type, sometimes with anything), and instance specs full of what breaks renderers:
 * deep nesting, huge strings, unicode keys and values, `$(VAR)`, nulls, mixed types.
 */
import fc from 'fast-check';

export const FUZZ_GROUP = 'fuzz.example.com';

/** A valid registration spec of the Deployment + Service form factor for the CRD `crd`. */
export function baseRegistrationSpec(crd: string): Record<string, unknown> {
  return {
    crd,
    workload: {
      fromImage: { repo: 'registry.example.com/gadget:0.9.0' },
      formFactor: { deployment: { replicas: 1, service: { port: 80, targetPort: 8080 } } },
      parameterConfiguration: {
        global: { defaultPrefix: 'GADGET_' },
        fromSpec: {
          skip: [{ path: 'spec.internal' }],
          toEnv: [
            { path: 'spec.name', name: 'GADGET_NAME' },
            { path: 'spec.mode', default: { value: 'standard' } },
          ],
        },
        add: {
          toEnv: [
            { name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } },
            { name: 'FLAGS', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'flags' } },
          ],
        },
      },
    },
  };
}

type FieldType = 'string' | 'integer' | 'object' | 'array';
const P = ['workload', 'parameterConfiguration'];
const FIELDS: { path: (string | number)[]; type: FieldType }[] = [
  { path: ['crd'], type: 'string' },
  { path: ['workload', 'fromImage', 'repo'], type: 'string' },
  { path: ['workload', 'formFactor'], type: 'object' },
  { path: ['workload', 'formFactor', 'deployment', 'replicas'], type: 'integer' },
  { path: ['workload', 'formFactor', 'deployment', 'service'], type: 'object' },
  { path: ['workload', 'formFactor', 'deployment', 'service', 'port'], type: 'integer' },
  { path: ['workload', 'formFactor', 'deployment', 'service', 'targetPort'], type: 'integer' },
  { path: ['workload', 'formFactor', 'knativeService'], type: 'object' },
  { path: ['workload', 'formFactor', 'lambda'], type: 'object' },
  { path: [...P, 'global', 'defaultPrefix'], type: 'string' },
  { path: [...P, 'fromSpec', 'skip'], type: 'array' },
  { path: [...P, 'fromSpec', 'skip', 0, 'path'], type: 'string' },
  { path: [...P, 'fromSpec', 'toEnv', 0, 'path'], type: 'string' },
  { path: [...P, 'fromSpec', 'toEnv', 0, 'name'], type: 'string' },
  { path: [...P, 'fromSpec', 'toEnv', 1, 'default'], type: 'object' },
  { path: [...P, 'fromSpec', 'toEnv', 1, 'defaultValue'], type: 'string' },
  { path: [...P, 'fromSpec', 'toEnv', 1, 'valueFrom'], type: 'object' },
  { path: [...P, 'fromSpec', 'toVolume'], type: 'array' },
  { path: [...P, 'add', 'toEnv', 0, 'name'], type: 'string' },
  { path: [...P, 'add', 'toEnv', 0, 'valueFrom'], type: 'object' },
  { path: [...P, 'add', 'toEnv', 1, 'valueFromControllerConfigMap', 'name'], type: 'string' },
  { path: [...P, 'add', 'toVolume'], type: 'array' },
  { path: ['workload', 'statusConfiguration', 'add'], type: 'array' },
  { path: ['workload', 'statusConfiguration', 'conditionsFromHook'], type: 'array' },
  { path: ['hook'], type: 'object' },
  { path: ['hook', 'version'], type: 'string' },
  { path: ['hook', 'address', 'uri'], type: 'string' },
  { path: ['hook', 'timeout'], type: 'string' },
  { path: ['hook', 'capabilities'], type: 'array' },
];

/** Strings that mean something to some field; no host names, so no mutation makes the controller reach out. */
const MEANINGFUL = [
  '',
  'spec',
  'spec.',
  'spec.name',
  'spec..x',
  'status.phase',
  'Ready',
  'GADGET_NAME',
  'v1',
  'v2',
  '1',
  'PT1S',
  'PT0S',
  '10s',
  '-PT5S',
  'P',
  'http://127.0.0.1:1/hook',
  '/v1',
  'ftp://127.0.0.1/x',
  'http://[::1',
  'pre-reconcile',
  'finalize',
  'post-reconcile',
  '$(VAR)',
  'mailers.notify.example.com',
  'nothing.example.com',
  `gadget0s.${FUZZ_GROUP}`,
  `gadget1s.${FUZZ_GROUP}`,
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...MEANINGFUL) },
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 5_000 }),
);
const integer = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 65535, 65536, 2 ** 31, Number.MAX_SAFE_INTEGER),
);
const object = fc.oneof(
  fc.constant({}),
  fc.constantFrom(
    { deployment: {} },
    { knativeService: {} },
    { deployment: {}, knativeService: {} },
    {
      version: 'v1',
      address: { uri: 'http://127.0.0.1:1/hook' },
      capabilities: ['pre-reconcile', 'finalize'],
    },
    { value: 'x', configMap: { name: 'a', key: 'b' } },
    { builtInFunc: { name: 'toUpper' } },
  ),
  fc.object({ maxDepth: 2, maxKeys: 3 }),
);
const array = fc.array(
  fc.oneof(
    fc.record({ path: text, name: text }),
    fc.record({ type: text }),
    fc.object({ maxDepth: 1, maxKeys: 3 }),
    text,
  ),
  { maxLength: 4 },
);
const VALUES: Record<FieldType, fc.Arbitrary<unknown>> = { string: text, integer, object, array };
const DELETE = Symbol('delete');

const mutation = fc.constantFrom(...FIELDS).chain((field) =>
  fc.record({
    path: fc.constant(field.path),
    value: fc.oneof(
      { weight: 10, arbitrary: VALUES[field.type] },
      fc.constant(DELETE),
      fc.constant(null),
      fc.anything({ maxDepth: 2, maxKeys: 3 }),
    ),
  }),
);

/** What a mutation inside `hook` starts from, so that it is not refused for a missing required field. */
const HOOK = { version: 'v1', address: { uri: 'http://127.0.0.1:1/hook' }, capabilities: ['pre-reconcile'] };

function mutate(spec: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  if (path[0] === 'hook' && path.length > 1 && spec.hook === undefined) spec.hook = structuredClone(HOOK);
  let node: Record<string | number, unknown> = spec;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = typeof key === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1] as string | number;
  if (value === DELETE) delete node[last];
  else node[last] = value;
}

/** `count` registration specs for the CRD `crd`, each the base with one to three mutations. */
export function mutatedRegistrationSpecs(
  crd: string,
  count: number,
  seed: number,
): Record<string, unknown>[] {
  return fc
    .sample(fc.array(mutation, { minLength: 1, maxLength: 3 }), { seed, numRuns: count })
    .map((mutations) => {
      const spec = baseRegistrationSpec(crd);
      for (const { path, value } of mutations) mutate(spec, path, value);
      return spec;
    });
}

const key = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom('a.b', '$(VAR)', '', 'spec', 'name', 'mode', 'ENV-NAME', '0', 'Ünïcødé', '🙂', 'a b'),
);
const leaf = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('$(VAR)', '$(HOME)', '$$(ESCAPED)', '${SHELL}', '\u0000', '\n', '\u202e', ''),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(key, tie('node'), { maxKeys: 5 }),
  ),
})).node;

function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { bottom: '$(VAR)' };
  for (let level = 0; level < depth; level++) node = { [`level${level % 7}`]: node };
  return node;
}

/** Instance specs; the CRDs preserve unknown fields under spec, so any object is stored. */
export function fuzzedSpecs(count: number, seed: number): Record<string, unknown>[] {
  const spec = fc.oneof(
    { weight: 6, arbitrary: fc.dictionary(key, json, { maxKeys: 8 }) },
    fc.integer({ min: 20, max: 200 }).map((depth) => ({ deep: nested(depth) })),
    fc
      .tuple(fc.integer({ min: 100_000, max: 300_000 }), fc.constantFrom('x', 'é', '🙂', '$(X)'))
      .map(([length, unit]) => ({ name: unit.repeat(length / unit.length) })),
    fc.record({ name: fc.constantFrom(null, 42, true, ['a'], { a: 1 }), mode: fc.anything({ maxDepth: 3 }) }),
  );
  return fc.sample(spec, { seed, numRuns: count });
}
