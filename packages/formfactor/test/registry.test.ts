import { describe, expect, it } from 'vitest';
import { createFormFactorRegistry, type FormFactorPlugin, type FormFactorRegistry } from '../src/index.ts';
import { BUILT_INS, FAKE_DEPLOYMENT, FAKE_KSVC, fakePlugin } from './fake-plugins.ts';

function registryOf(plugins: FormFactorPlugin[] = []): FormFactorRegistry {
  const created = createFormFactorRegistry({ builtIns: BUILT_INS, plugins });
  if (!created.ok) throw new Error(created.messages.join('; '));
  return created.registry;
}

function problem(message: string, path = 'spec.workload.formFactor') {
  return { path, reason: 'InvalidFormFactor', message };
}

const QUEUE = fakePlugin('queue', {
  blockSchema: {
    type: 'object',
    required: ['size'],
    additionalProperties: false,
    properties: {
      size: { type: 'integer', minimum: 1 },
      mode: { type: 'string', default: 'fifo' },
      topics: {
        type: 'array',
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      },
    },
  },
  conditionTypes: ['QueueReady'],
});

describe('resolve: selecting the form factor (docs/spec/registration.md §3.1, §4 rows 1–2)', () => {
  it.each([
    ['formFactor absent', undefined],
    ['formFactor null', null],
    ['formFactor {}', {}],
    ['only null keys', { deployment: null, knativeService: null }],
    ['a null unknown key', { lambda: null }],
  ])('%s selects a one-replica Deployment', (_case, formFactor) => {
    expect(registryOf().resolve(formFactor)).toEqual({
      ok: true,
      formFactor: {
        plugin: FAKE_DEPLOYMENT,
        name: 'deployment',
        hookName: 'deployment',
        block: { replicas: 1 },
        conditionTypes: ['DeploymentReady'],
      },
    });
  });

  it('selects the one key set and reports its hook name and the conditions for its block', () => {
    expect(registryOf().resolve({ knativeService: {}, deployment: null })).toEqual({
      ok: true,
      formFactor: {
        plugin: FAKE_KSVC,
        name: 'knativeService',
        hookName: 'ksvc',
        block: {},
        conditionTypes: ['KnativeServiceReady'],
      },
    });
    const withService = registryOf().resolve({ deployment: { service: { port: 80, targetPort: 8080 } } });
    expect(withService).toEqual({
      ok: true,
      formFactor: {
        plugin: FAKE_DEPLOYMENT,
        name: 'deployment',
        hookName: 'deployment',
        block: { replicas: 1, service: { port: 80, targetPort: 8080 } },
        conditionTypes: ['DeploymentReady', 'ServiceReady'],
      },
    });
  });

  it('refuses two keys, naming both in byte order', () => {
    expect(registryOf().resolve({ knativeService: {}, deployment: { replicas: 2 } })).toEqual({
      ok: false,
      problems: [
        problem(
          'spec.workload.formFactor: exactly one form factor may be set, found "deployment", "knativeService"',
        ),
      ],
    });
    expect(registryOf([QUEUE]).resolve({ queue: { size: 1 }, Queue: {}, knativeService: {} })).toEqual({
      ok: false,
      problems: [
        problem(
          'spec.workload.formFactor: exactly one form factor may be set, found "Queue", "knativeService", "queue"',
        ),
        problem(
          'spec.workload.formFactor: unknown form factor "Queue" (available: "deployment", "knativeService", "queue")',
        ),
      ],
    });
  });

  it('reports every unknown key after the two-keys problem, in document order, as validation does', () => {
    expect(registryOf().resolve({ lambda: {}, deployment: {}, cron: {} })).toEqual({
      ok: false,
      problems: [
        problem(
          'spec.workload.formFactor: exactly one form factor may be set, found "cron", "deployment", "lambda"',
        ),
        problem(
          'spec.workload.formFactor: unknown form factor "lambda" (available: "deployment", "knativeService")',
        ),
        problem(
          'spec.workload.formFactor: unknown form factor "cron" (available: "deployment", "knativeService")',
        ),
      ],
    });
  });

  it('refuses an unknown key, listing the available names', () => {
    expect(registryOf().resolve({ lambda: {} })).toEqual({
      ok: false,
      problems: [
        problem(
          'spec.workload.formFactor: unknown form factor "lambda" (available: "deployment", "knativeService")',
        ),
      ],
    });
  });

  it('reports the default as unknown when the deployment form factor is not available', () => {
    const created = createFormFactorRegistry({ builtIns: [FAKE_KSVC], plugins: [] });
    expect(created.ok && created.registry.resolve({})).toEqual({
      ok: false,
      problems: [
        problem('spec.workload.formFactor: unknown form factor "deployment" (available: "knativeService")'),
      ],
    });
  });

  it('lists plugin names after the built-ins, in byte order', () => {
    const registry = registryOf([fakePlugin('zeta'), QUEUE, fakePlugin('Zulu')]);
    expect(registry.names()).toEqual(['deployment', 'knativeService', 'Zulu', 'queue', 'zeta']);
    expect(registry.resolve({ lambda: 1 })).toEqual({
      ok: false,
      problems: [
        problem(
          'spec.workload.formFactor: unknown form factor "lambda" (available: "deployment", "knativeService", "Zulu", "queue", "zeta")',
        ),
      ],
    });
  });

  it('refuses a formFactor that is not an object', () => {
    expect(registryOf().resolve('deployment')).toEqual({
      ok: false,
      problems: [problem('spec.workload.formFactor: must be an object')],
    });
    expect(registryOf().resolve([{ deployment: {} }])).toEqual({
      ok: false,
      problems: [problem('spec.workload.formFactor: must be an object')],
    });
  });
});

describe('resolve: validating the block (docs/spec/registration.md §4 row 3)', () => {
  it('uses the form factor’s message for its fields, also when the field is missing', () => {
    const port = 'spec.workload.formFactor.deployment.service.port';
    const targetPort = 'spec.workload.formFactor.deployment.service.targetPort';
    expect(registryOf().resolve({ deployment: { service: { port: 0, targetPort: 'http' } } })).toEqual({
      ok: false,
      problems: [
        problem(`${port}: must be an integer between 1 and 65535`, port),
        problem(`${targetPort}: must be an integer between 1 and 65535`, targetPort),
      ],
    });
    expect(registryOf().resolve({ deployment: { service: {} } })).toEqual({
      ok: false,
      problems: [
        problem(`${port}: must be an integer between 1 and 65535`, port),
        problem(`${targetPort}: must be an integer between 1 and 65535`, targetPort),
      ],
    });
  });

  it('reports a plugin’s schema violations with the field path and the validator’s message', () => {
    const base = 'spec.workload.formFactor.queue';
    expect(
      registryOf([QUEUE]).resolve({
        queue: { size: 0, extra: true, topics: [{ name: 'a' }, { name: 7 }, {}] },
      }),
    ).toEqual({
      ok: false,
      problems: [
        problem(`${base}.extra: must NOT have additional properties`, `${base}.extra`),
        problem(`${base}.size: must be >= 1`, `${base}.size`),
        problem(`${base}.topics[1].name: must be string`, `${base}.topics[1].name`),
        problem(`${base}.topics[2].name: must have required property 'name'`, `${base}.topics[2].name`),
      ],
    });
  });

  it('reports a block that is not an object at the form factor’s own path', () => {
    expect(registryOf([QUEUE]).resolve({ queue: 5 })).toEqual({
      ok: false,
      problems: [problem('spec.workload.formFactor.queue: must be object', 'spec.workload.formFactor.queue')],
    });
  });

  it('applies schema defaults to a copy, leaving the registration untouched', () => {
    const formFactor = { queue: { size: 3 } };
    const resolution = registryOf([QUEUE]).resolve(formFactor);
    expect(resolution.ok && resolution.formFactor.block).toEqual({ size: 3, mode: 'fifo' });
    expect(formFactor).toEqual({ queue: { size: 3 } });
  });
});

describe('the FormFactorCatalog used by registration validation', () => {
  const registry = registryOf([QUEUE]);

  it('validates and defaults one block by name', () => {
    expect(registry.validateBlock('queue', { size: 2 })).toEqual([]);
    expect(registry.validateBlock('queue', {})).toEqual([
      problem(
        "spec.workload.formFactor.queue.size: must have required property 'size'",
        'spec.workload.formFactor.queue.size',
      ),
    ]);
    expect(registry.validateBlock('lambda', {})).toEqual([
      problem(
        'spec.workload.formFactor: unknown form factor "lambda" (available: "deployment", "knativeService", "queue")',
      ),
    ]);
    expect(registry.defaultBlock('deployment', null)).toEqual({ replicas: 1 });
    expect(registry.defaultBlock('queue', { size: 2 })).toEqual({ size: 2, mode: 'fifo' });
    expect(registry.defaultBlock('lambda', { a: 1 })).toEqual({});
  });

  it('lists every condition type a form factor may report', () => {
    expect(registry.conditionTypes('deployment')).toEqual(['DeploymentReady', 'ServiceReady']);
    expect(registry.conditionTypes('queue')).toEqual(['QueueReady']);
    expect(registry.conditionTypes('lambda')).toEqual([]);
  });

  it('finds plugins by name', () => {
    expect(registry.get('queue')).toBe(QUEUE);
    expect(registry.get('ksvc')).toBeUndefined();
  });
});

describe('allManagedKinds', () => {
  it('is the union over every form factor, without repeats', () => {
    const statefulSet = fakePlugin('statefulSet', {
      managedKinds: [
        { apiVersion: 'apps/v1', kind: 'StatefulSet' },
        { apiVersion: 'v1', kind: 'Service' },
      ],
    });
    expect(registryOf([statefulSet]).allManagedKinds()).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'v1', kind: 'Service' },
      { apiVersion: 'serving.knative.dev/v1', kind: 'Service' },
      { apiVersion: 'apps/v1', kind: 'StatefulSet' },
    ]);
  });
});

describe('createFormFactorRegistry refusals', () => {
  function messagesOf(plugins: FormFactorPlugin[], builtIns: FormFactorPlugin[] = BUILT_INS): string[] {
    const created = createFormFactorRegistry({ builtIns, plugins });
    return created.ok ? [] : created.messages;
  }

  it('reserves the built-in names for the built-ins', () => {
    expect(messagesOf([fakePlugin('deployment'), fakePlugin('knativeService'), fakePlugin('ksvc')])).toEqual([
      'form factor plugin "deployment": the name is reserved for a built-in form factor',
      'form factor plugin "knativeService": the name is reserved for a built-in form factor',
      'form factor plugin "ksvc": the name is reserved for a built-in form factor',
      'form factor "deployment" is provided twice',
      'form factor "knativeService" is provided twice',
    ]);
  });

  it('refuses two plugins with one name', () => {
    expect(messagesOf([QUEUE, fakePlugin('queue')])).toEqual(['form factor "queue" is provided twice']);
  });

  it('refuses a plugin whose hook name differs from its name', () => {
    expect(messagesOf([fakePlugin('queue', { hookName: 'q' })])).toEqual([
      'form factor plugin "queue": hookName "q" must equal the name, which is what hooks receive',
    ]);
    expect(messagesOf([fakePlugin('queue', { hookName: 'queue' })])).toEqual([]);
  });

  it('refuses the condition type Ready', () => {
    expect(messagesOf([fakePlugin('queue', { conditionTypes: ['QueueReady', 'Ready'] })])).toEqual([
      'form factor "queue": condition type "Ready" is managed by Scoby',
    ]);
  });

  it("refuses kstatus's condition types Reconciling and Stalled", () => {
    expect(
      messagesOf([fakePlugin('queue', { conditionTypes: ['Stalled', 'QueueReady', 'Reconciling'] })]),
    ).toEqual([
      'form factor "queue": condition type "Reconciling" is managed by Scoby',
      'form factor "queue": condition type "Stalled" is managed by Scoby',
    ]);
  });

  it('refuses a block schema the validator cannot compile', () => {
    expect(
      messagesOf([
        fakePlugin('queue', { blockSchema: { type: 'object', properties: { size: { minimun: 1 } } } }),
      ]),
    ).toEqual(['form factor "queue": invalid block schema: strict mode: unknown keyword: "minimun"']);
  });

  it('refuses a plugin named like a built-in even when the built-in is absent', () => {
    expect(messagesOf([fakePlugin('deployment')], [FAKE_KSVC])).toEqual([
      'form factor plugin "deployment": the name is reserved for a built-in form factor',
    ]);
  });
});
