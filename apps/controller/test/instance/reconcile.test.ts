/**
 * The instance reconcile (docs/spec/children-and-status.md §1, docs/spec/hooks-v1.md §6–§7) with fakes: an
 * API client that keeps one instance and its children in memory and can refuse any write, a hook
 * whose answers each test scripts, and the real `deployment` form factor and registration
 * normalisation. Each case asserts the outcome, the writes sent and the Events.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import jsonMergePatch from 'json-merge-patch';
import type { HookCall, HookClient, HookResult } from '@scoby/hooks-v1/client';
import { deploymentFormFactor } from '@scoby/formfactor-deployment';
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER, validateRegistration } from '@scoby/registration';
import {
  ApiError,
  type DynamicClient,
  type ReconcileResult,
  type ResourceRef,
} from '@scoby/controller-runtime';
import { builtInFormFactors } from '../../src/process/built-in-form-factors.ts';
import { InstanceReconciler, type ReconcileDependencies } from '../../src/instance/reconcile.ts';
import { InstanceReconcileError, type ReconcileFailure } from '../../src/instance/reconcile-failure.ts';
import type { InstanceConfig } from '../../src/instance/instance-config.ts';
import type { ChildStore } from '../../src/instance/children/write-children.ts';
import type { StatusFeatures } from '../../src/crd/inspect.ts';
import { instanceKey, reconcileContext } from './reconcile-context.ts';

const INSTANCE_RESOURCE: ResourceRef = {
  group: 'example.com',
  version: 'v1',
  resource: 'mailers',
  namespaced: true,
};
const DEPLOYMENTS: ResourceRef = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true };
const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services', namespaced: true };
const NOW = new Date('2026-11-26T07:00:00Z');
const FEATURES: StatusFeatures = {
  subresource: true,
  conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  observedGeneration: true,
  address: false,
  schema: undefined,
};
/** The registration's hook: its resolved address and its capabilities. */
interface HookOption {
  url: string;
  timeoutMs: number;
  preReconcile: boolean;
  finalize: boolean;
}

const HOOK: HookOption = {
  url: 'http://hook.example/v1',
  timeoutMs: 1000,
  preReconcile: true,
  finalize: false,
};

function config(
  options: {
    hook?: HookOption;
    subresource?: boolean;
    parameterConfiguration?: unknown;
    service?: boolean;
    statusAdd?: unknown[];
    features?: Partial<StatusFeatures>;
  } = {},
): InstanceConfig {
  const registration = {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: 'mailer' },
    spec: {
      crd: 'mailers.example.com',
      workload: {
        fromImage: { repo: 'registry.example.com/mailer:1' },
        formFactor: {
          deployment: {
            replicas: 1,
            ...(options.service ? { service: { port: 80, targetPort: 8080 } } : {}),
          },
        },
        ...(options.parameterConfiguration ? { parameterConfiguration: options.parameterConfiguration } : {}),
        ...(options.statusAdd ? { statusConfiguration: { add: options.statusAdd } } : {}),
      },
      // The registration whose resolved hook is options.hook, as the registration controller makes it.
      ...(options.hook
        ? {
            hook: {
              version: 'v1',
              address: { uri: options.hook.url },
              capabilities: [
                ...(options.hook.preReconcile ? ['pre-reconcile'] : []),
                ...(options.hook.finalize ? ['finalize'] : []),
              ],
            },
          }
        : {}),
    },
  } as KubeObject;
  const validation = validateRegistration(registration, builtInFormFactors([]));
  if (!validation.ok) throw new Error(validation.message);
  return {
    registrationName: 'mailer',
    registrationUid: 'registration-uid',
    revision: 'r1',
    writeVerbs: { status: 'patch', finalizers: 'patch' },
    spec: validation.spec,
    plugin: deploymentFormFactor as FormFactorPlugin,
    crd: {
      name: 'mailers.example.com',
      group: 'example.com',
      kind: 'Mailer',
      plural: 'mailers',
      version: 'v1',
      status: { ...FEATURES, subresource: options.subresource ?? true, ...options.features },
    } as InstanceConfig['crd'],
    instanceResource: INSTANCE_RESOURCE,
    ...(options.hook ? { hook: { url: options.hook.url, timeoutMs: options.hook.timeoutMs } } : {}),
    prunableKinds: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    conditionTypes: options.service
      ? ['DeploymentReady', 'Ready', 'ServiceReady']
      : ['DeploymentReady', 'Ready'],
    hookConditionTypes: [],
  };
}

/** A request the fake API server refuses: `when` picks it, `error` is the answer. */
interface Refusal {
  when(write: Write): boolean;
  error: ApiError;
}

interface Write {
  verb: 'create' | 'apply' | 'patch' | 'delete';
  resource: string;
  name: string;
  body?: unknown;
  subresource?: string;
}

class FakeApi {
  instance: KubeObject | undefined;
  readonly children = new Map<string, KubeObject>();
  readonly writes: Write[] = [];
  refusals: Refusal[] = [];
  #version = 100;

  constructor(instance: KubeObject) {
    this.instance = instance;
  }

  #refuse(write: Write): void {
    this.writes.push(write);
    const refusal = this.refusals.find((candidate) => candidate.when(write));
    if (refusal) throw refusal.error;
  }

  #stamp(object: KubeObject): KubeObject {
    return { ...object, metadata: { ...object.metadata, resourceVersion: String(++this.#version) } };
  }

  readonly client = {
    patch: async (
      resource: ResourceRef,
      _namespace: string,
      name: string,
      body: Record<string, unknown>,
      options: { subresource?: string } = {},
    ) => {
      this.#refuse({
        verb: 'patch',
        resource: resource.resource,
        name,
        body,
        ...(options.subresource ? { subresource: options.subresource } : {}),
      });
      if (resource.resource !== 'mailers') throw new Error('unexpected child patch');
      if (!this.instance) throw new ApiError(404, 'NotFound', `mailers.example.com "${name}" not found`);
      const { resourceVersion: _ignored, ...metadata } = (body.metadata ?? {}) as Record<string, unknown>;
      const patch = options.subresource === 'status' ? { status: body.status } : { ...body, metadata };
      this.instance = this.#stamp(jsonMergePatch.apply(structuredClone(this.instance), patch) as KubeObject);
      return this.instance;
    },
    create: async (resource: ResourceRef, object: KubeObject) => {
      this.#refuse({
        verb: 'create',
        resource: resource.resource,
        name: object.metadata.name ?? '',
        body: object,
      });
      const created = this.#stamp({
        ...object,
        metadata: { ...object.metadata, uid: `uid-${object.metadata.name}` },
      });
      this.children.set(`${object.kind}/${object.metadata.name}`, created);
      return created;
    },
    apply: async (resource: ResourceRef, object: KubeObject) => {
      this.#refuse({
        verb: 'apply',
        resource: resource.resource,
        name: object.metadata.name ?? '',
        body: object,
      });
      const applied = this.#stamp(object);
      this.children.set(`${object.kind}/${object.metadata.name}`, applied);
      return applied;
    },
    get: async (resource: ResourceRef, _namespace: string, name: string) => {
      const child = this.children.get(
        `${resource.resource === 'services' ? 'Service' : 'Deployment'}/${name}`,
      );
      if (!child) throw new ApiError(404, 'NotFound', `"${name}" not found`);
      return child;
    },
    delete: async (resource: ResourceRef, _namespace: string, name: string) => {
      this.#refuse({ verb: 'delete', resource: resource.resource, name });
      this.children.delete(`${resource.resource === 'services' ? 'Service' : 'Deployment'}/${name}`);
    },
  } as unknown as DynamicClient;

  /** The informer cache of the children: what the API server has. */
  readonly store: ChildStore = {
    resourceFor: (apiVersion, kind) =>
      apiVersion === 'apps/v1' && kind === 'Deployment'
        ? DEPLOYMENTS
        : apiVersion === 'v1' && kind === 'Service'
          ? SERVICES
          : undefined,
    get: (_apiVersion, kind, _namespace, name) => this.children.get(`${kind}/${name}`),
    list: () => [...this.children.values()],
    upToDate: () => {},
  };
}

const refuse = (code: number, reason: string, when: (write: Write) => boolean): Refusal => ({
  when,
  error: new ApiError(code, reason, `${reason.toLowerCase()}: refused`),
});

type HookScript = (call: HookCall) => HookResult;

interface World {
  api: FakeApi;
  reconciler: InstanceReconciler;
  events: [string, string, string][];
  hookCalls: HookCall[];
  hookMetrics: string[];
  logLines: string[];
  answer(script: HookScript): void;
  now: { value: Date };
  reconcile(
    cfg: InstanceConfig,
    /** What the cache holds; by default the instance as the fake API server has it. */
    cached?: KubeObject | typeof GONE,
  ): Promise<Summary>;
}

/**
 * A reconcile's result as the assertions read it: done (with the writes it sent), a requeue, a
 * retry of a failure (after a delay when given), or a terminal failure.
 */
type Summary =
  | { kind: 'done'; writes: number }
  | { kind: 'requeue'; afterMs: number }
  | { kind: 'retry'; failure: ReconcileFailure; retryAfterMs?: number }
  | { kind: 'terminal'; failure: ReconcileFailure };

function summarize(result: ReconcileResult, writes: number): Summary {
  if (result === undefined) return { kind: 'done', writes };
  if ('terminal' in result) return { kind: 'terminal', failure: failureOf(result.terminal) };
  if ('error' in result) {
    const failure = failureOf(result.error);
    return result.retryAfterMs === undefined
      ? { kind: 'retry', failure }
      : { kind: 'retry', failure, retryAfterMs: result.retryAfterMs };
  }
  return { kind: 'requeue', afterMs: result.requeueAfterMs ?? 0 };
}

function failureOf(error: unknown): ReconcileFailure {
  if (!(error instanceof InstanceReconcileError))
    throw new Error(`not an instance failure: ${String(error)}`);
  return error.failure;
}

const ORDERS = instanceKey('example.com', 'Mailer', 'shop', 'orders');

/** The cache no longer holds the instance. */
const GONE = Symbol('gone');

const failure = (message: string, extra: Partial<Extract<HookResult, { ok: false }>> = {}): HookResult => ({
  ok: false,
  message,
  outcome: 'transport-error',
  permanent: false,
  continue: false,
  transient: true,
  ...extra,
});

function mailer(overrides: Partial<KubeObject['metadata']> = {}, spec: unknown = {}): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Mailer',
    metadata: {
      name: 'orders',
      namespace: 'shop',
      uid: 'mailer-uid',
      generation: 1,
      resourceVersion: '10',
      ...overrides,
    },
    spec,
  };
}

function world(instance: KubeObject = mailer()): World {
  const api = new FakeApi(instance);
  const events: [string, string, string][] = [];
  const hookCalls: HookCall[] = [];
  const hookMetrics: string[] = [];
  const logLines: string[] = [];
  const now = { value: NOW };
  let script: HookScript = () => ({ ok: true });
  const hooks: HookClient = {
    cutCalls: () => undefined,
    call: async (call) => {
      hookCalls.push(call);
      return script(call);
    },
    close: () => {},
  };
  const deps: ReconcileDependencies = {
    client: api.client,
    lookups: {
      controllerNamespace: 'scoby-system',
      controllerConfigMap: () => undefined,
      resolveAddress: async () => ({ ok: false, message: 'no addresses here' }),
    },
    hooks,
    events: { emit: (_object, type, reason, message) => events.push([type, reason, message]) },
    logger: {
      info: (_fields: unknown, message: string) => logLines.push(message),
      debug: () => {},
    } as never,
    recordHookCall: (_registration, phase, _ms, outcome) => hookMetrics.push(`${phase} ${outcome}`),
    clusterDomain: 'cluster.local',
    now: () => now.value,
  };
  const reconciler = new InstanceReconciler(deps, config(), api.store);
  return {
    api,
    reconciler,
    events,
    hookCalls,
    hookMetrics,
    logLines,
    now,
    answer: (next) => (script = next),
    reconcile: async (cfg, cached = api.instance) => {
      const before = api.writes.length;
      // The configuration of this reconcile, as the controller hands a reconfiguration on.
      reconciler.reconfigure(cfg);
      const result = await reconciler.reconcile(
        ORDERS,
        cached === GONE ? undefined : cached,
        reconcileContext(),
      );
      return summarize(result, api.writes.length - before);
    },
  };
}

const statusWrites = (api: FakeApi) => api.writes.filter((write) => write.subresource === 'status');
const readyOf = (object: KubeObject | undefined) =>
  ((object?.status as { conditions?: { type: string }[] } | undefined)?.conditions ?? []).find(
    (condition) => condition.type === 'Ready',
  );

describe('an instance without a hook', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });

  it('creates its Deployment, writes Ready=Unknown, and writes nothing more in a steady state', async () => {
    expect(await w.reconcile(config())).toEqual({ kind: 'done', writes: 2 });
    expect(w.api.writes.map((write) => [write.verb, write.resource, write.name])).toEqual([
      ['create', 'deployments', 'mailer-orders'],
      ['patch', 'mailers', 'orders'],
    ]);
    expect(readyOf(w.api.instance)).toEqual({
      type: 'Ready',
      status: 'Unknown',
      reason: 'UNKNOWN',
      message: '',
      lastTransitionTime: '2026-11-26T07:00:00Z',
    });
    expect(w.events).toEqual([['Normal', 'Created', 'created Deployment shop/mailer-orders']]);
    expect(w.logLines).toEqual(['child created']);

    w.api.writes.length = 0;
    expect(await w.reconcile(config())).toEqual({ kind: 'done', writes: 0 });
    expect(w.api.writes).toEqual([]);
  });

  it('announces the children of one action in one Event', async () => {
    expect(await w.reconcile(config({ service: true }))).toEqual({ kind: 'done', writes: 3 });
    expect(w.events).toEqual([
      ['Normal', 'Created', 'created Deployment shop/mailer-orders, Service shop/mailer-orders'],
    ]);
  });

  it('applies statusConfiguration.add where the status schema admits it', async () => {
    const w2 = world(mailer({}, { plan: 'gold' }));
    await w2.reconcile(
      config({
        statusAdd: [{ path: 'status.plan', valueFrom: { path: 'spec.plan' } }],
        features: { schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      }),
    );
    expect(w2.api.instance?.status).toMatchObject({ plan: 'gold' });
  });

  it('skips a cached copy older than its own last write (a stale cache), then reconciles the newer one', async () => {
    const stale = w.api.instance!;
    await w.reconcile(config());
    w.api.writes.length = 0;
    expect(await w.reconcile(config(), stale)).toEqual({ kind: 'done', writes: 0 });
    expect(w.api.writes).toEqual([]);
  });

  it('writes no status when the CRD has no status subresource', async () => {
    expect(await w.reconcile(config({ subresource: false }))).toEqual({ kind: 'done', writes: 1 });
    expect(statusWrites(w.api)).toEqual([]);
  });

  it('forgets a vanished instance', async () => {
    expect(await w.reconcile(config(), GONE)).toEqual({ kind: 'done', writes: 0 });
  });

  it('prunes a child the desired set no longer has', async () => {
    await w.reconcile(config());
    const old = w.api.children.get('Deployment/mailer-orders')!;
    w.api.children.set('Deployment/mailer-old', {
      ...old,
      metadata: { ...old.metadata, name: 'mailer-old', uid: 'uid-old' },
    });
    await w.reconcile(config());
    expect(w.api.writes.filter((write) => write.verb === 'delete').map((write) => write.name)).toEqual([
      'mailer-old',
    ]);
    expect(w.events.at(-1)).toEqual(['Normal', 'Pruned', 'pruned Deployment shop/mailer-old']);
  });

  it('Ready=False/RenderFailed, parked, when the spec lacks what parameterConfiguration reads', async () => {
    const cfg = config({
      parameterConfiguration: {
        fromSpec: {
          toEnv: [
            {
              path: 'spec.credentials',
              name: 'PASSWORD',
              valueFrom: { secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.key' } },
            },
          ],
        },
      },
    });
    const w2 = world(mailer({}, { credentials: { key: 'password' } }));
    const outcome = await w2.reconcile(cfg);
    const message = 'spec.credentials: valueFrom.secretPath.name: no value at "spec.credentials.secretName"';
    expect(outcome).toEqual({ kind: 'terminal', failure: { reason: 'RenderFailed', message } });
    expect(w2.events).toEqual([['Warning', 'RenderFailed', message]]);
    expect(readyOf(w2.api.instance)).toMatchObject({ status: 'False', reason: 'RenderFailed', message });
    expect(w2.api.writes.filter((write) => write.resource === 'deployments')).toEqual([]);
  });

  it('Ready=False/ApplyFailed when a child write is refused', async () => {
    w.api.refusals = [refuse(500, 'InternalError', (write) => write.verb === 'create')];
    const outcome = await w.reconcile(config());
    const message = 'Deployment "shop/mailer-orders": internalerror: refused';
    expect(outcome).toEqual({ kind: 'retry', failure: { reason: 'ApplyFailed', message } });
    expect(w.events).toEqual([['Warning', 'ApplyFailed', message]]);
    expect(readyOf(w.api.instance)).toMatchObject({ status: 'False', reason: 'ApplyFailed' });
  });

  it('ApplyFailed when a prune is refused', async () => {
    await w.reconcile(config());
    const old = w.api.children.get('Deployment/mailer-orders')!;
    w.api.children.set('Deployment/mailer-old', {
      ...old,
      metadata: { ...old.metadata, name: 'mailer-old', uid: 'uid-old' },
    });
    w.api.refusals = [refuse(403, 'Forbidden', (write) => write.verb === 'delete')];
    const outcome = await w.reconcile(config());
    expect(outcome).toMatchObject({ kind: 'retry', failure: { reason: 'ApplyFailed' } });
  });

  it('a refused status write: a StatusWriteFailed Event, and the smallest failure status', async () => {
    let refused = 0;
    w.api.refusals = [
      refuse(500, 'InternalError', (write) => write.subresource === 'status' && refused++ === 0),
    ];
    const outcome = await w.reconcile(config());
    expect(outcome).toEqual({
      kind: 'retry',
      failure: {
        reason: 'StatusWriteFailed',
        message: 'internalerror: refused',
        statusWriteError: 'internalerror: refused',
      },
    });
    expect(w.events.at(-1)).toEqual(['Warning', 'StatusWriteFailed', 'internalerror: refused']);
    expect(readyOf(w.api.instance)).toMatchObject({ status: 'False', reason: 'StatusWriteFailed' });
  });

  it('both status writes refused: the outcome carries both errors', async () => {
    w.api.refusals = [refuse(500, 'InternalError', (write) => write.subresource === 'status')];
    const outcome = await w.reconcile(config());
    expect(outcome).toEqual({
      kind: 'retry',
      failure: {
        reason: 'StatusWriteFailed',
        message: 'internalerror: refused',
        statusWriteError: 'internalerror: refused; internalerror: refused',
      },
    });
    expect(w.events.filter(([, reason]) => reason === 'StatusWriteFailed')).toHaveLength(2);
  });

  it('a status write that finds the instance gone is no failure', async () => {
    w.api.refusals = [refuse(404, 'NotFound', (write) => write.subresource === 'status')];
    // Sent: the Deployment's create and the status patch answered 404; no fallback write follows.
    expect(await w.reconcile(config())).toEqual({ kind: 'done', writes: 2 });
    expect(statusWrites(w.api)).toHaveLength(1);
  });

  it('a failed status write records the failure it was to record (RenderFailed stays the reason)', async () => {
    const cfg = config({
      parameterConfiguration: {
        fromSpec: {
          toEnv: [{ path: 'spec.x', valueFrom: { secretPath: { name: 'spec.x.name', key: 'spec.x.key' } } }],
        },
      },
    });
    const w2 = world(mailer({}, { x: {} }));
    let refused = 0;
    w2.api.refusals = [
      refuse(500, 'InternalError', (write) => write.subresource === 'status' && refused++ === 0),
    ];
    const outcome = await w2.reconcile(cfg);
    expect(outcome).toMatchObject({
      kind: 'retry',
      failure: { reason: 'RenderFailed', statusWriteError: 'internalerror: refused' },
    });
    expect(readyOf(w2.api.instance)).toMatchObject({ status: 'False', reason: 'RenderFailed' });
  });

  it('a failure status that finds the instance gone ends quietly', async () => {
    w.api.refusals = [
      refuse(
        500,
        'InternalError',
        (write) =>
          write.verb === 'patch' &&
          write.subresource === 'status' &&
          !JSON.stringify(write.body).includes('StatusWriteFailed'),
      ),
      refuse(404, 'NotFound', (write) => JSON.stringify(write.body).includes('StatusWriteFailed')),
    ];
    const outcome = await w.reconcile(config());
    expect(outcome).toEqual({
      kind: 'retry',
      failure: {
        reason: 'StatusWriteFailed',
        message: 'internalerror: refused',
        statusWriteError: 'internalerror: refused',
      },
    });
  });
});

describe('a cached copy older than the last own write (§9, "Not a trigger")', () => {
  it('is not reconciled, and the echo of the failure status written over it brings the instance back', async () => {
    // Found by the fault bench's `mixed` on the real control plane: a status write reached the server
    // but its answer was lost to a reset connection, so the reconcile recorded StatusWriteFailed over
    // it. The cache then delivered the lost write's version: the reconcile of that copy found its
    // status as desired and wrote nothing, the failure status's event was skipped as an echo, and
    // the instance kept Ready=False for good.
    const w = world();
    const patch = w.api.client.patch.bind(w.api.client);
    let lost: KubeObject | undefined;
    Object.assign(w.api.client, {
      patch: async (...args: Parameters<DynamicClient['patch']>) => {
        const stored = await patch(...args);
        if (
          lost === undefined &&
          (args[4] as { subresource?: string } | undefined)?.subresource === 'status'
        ) {
          lost = stored;
          throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
        }
        return stored;
      },
    });
    const read = w.api.instance!;

    expect(await w.reconcile(config(), read)).toEqual({
      kind: 'retry',
      failure: {
        reason: 'StatusWriteFailed',
        message: 'read ECONNRESET',
        statusWriteError: 'read ECONNRESET',
      },
    });
    const failed = w.api.instance!;
    expect(readyOf(failed)).toMatchObject({ status: 'False', reason: 'StatusWriteFailed' });
    expect(readyOf(lost)).toMatchObject({ status: 'Unknown', reason: 'UNKNOWN' });
    expect(Number(lost!.metadata.resourceVersion)).toBeLessThan(Number(failed.metadata.resourceVersion));

    // The watch brings the lost write's version late: older than the failure status, it is skipped.
    w.api.writes.length = 0;
    expect(await w.reconcile(config(), lost)).toEqual({ kind: 'done', writes: 0 });
    // The failure status's event is no echo then: the controller reconciles it, and Ready is back.
    expect(w.reconciler.ownWrites.isEcho(failed)).toBe(false);
    expect(await w.reconcile(config(), failed)).toEqual({ kind: 'done', writes: 1 });
    expect(readyOf(w.api.instance)).toMatchObject({ status: 'Unknown', reason: 'UNKNOWN' });
  });
});

describe('the finalizer of a live instance (§1 step 4)', () => {
  it('is added when the hook has finalize, before anything else', async () => {
    const w = world();
    const outcome = await w.reconcile(config({ hook: { ...HOOK, preReconcile: false, finalize: true } }));
    expect(outcome).toEqual({ kind: 'done', writes: 3 });
    expect(w.api.writes[0]).toEqual({
      verb: 'patch',
      resource: 'mailers',
      name: 'orders',
      body: { metadata: { finalizers: [FINALIZER], resourceVersion: '10' } },
    });
  });

  it('is removed, with a FinalizerReleased Event, when the hook lost finalize', async () => {
    const w = world(mailer({ finalizers: [FINALIZER] }));
    await w.reconcile(config());
    expect(w.api.instance?.metadata.finalizers).toEqual([]);
    expect(w.events[0]).toEqual(['Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`]);
  });

  it('ends the reconcile when the instance is gone by then', async () => {
    const w = world();
    w.api.instance = undefined;
    expect(await w.reconcile(config({ hook: { ...HOOK, finalize: true } }), mailer())).toEqual({
      kind: 'done',
      writes: 1,
    });
  });

  it('a refused finalizer write is a ReconcileFailed that says what was attempted', async () => {
    const w = world();
    w.api.refusals = [refuse(500, 'InternalError', (write) => write.subresource === undefined)];
    const outcome = await w.reconcile(config({ hook: { ...HOOK, finalize: true } }));
    const message = `adding finalizer ${FINALIZER} failed: internalerror: refused`;
    expect(outcome).toEqual({ kind: 'retry', failure: { reason: 'ReconcileFailed', message } });
    expect(w.events).toEqual([['Warning', 'ReconcileFailed', message]]);
    expect(readyOf(w.api.instance)).toMatchObject({ status: 'False', reason: 'ReconcileFailed', message });
  });
});

describe('failures recorded without a status write', () => {
  it('no status subresource: the failure is an Event only', async () => {
    const w = world();
    w.api.refusals = [refuse(500, 'InternalError', (write) => write.subresource === undefined)];
    expect(
      await w.reconcile(config({ subresource: false, hook: { ...HOOK, finalize: true } })),
    ).toMatchObject({
      kind: 'retry',
      failure: { reason: 'ReconcileFailed' },
    });
    expect(w.api.writes.filter((write) => write.subresource === 'status')).toEqual([]);
  });

  it('a status that keeps neither conditions nor observedGeneration: no failure status is written', async () => {
    const w = world();
    w.api.refusals = [refuse(500, 'InternalError', (write) => write.subresource === undefined)];
    const cfg = config({
      hook: { ...HOOK, finalize: true },
      features: { conditionFields: [], observedGeneration: false },
    });
    expect(await w.reconcile(cfg)).toMatchObject({ kind: 'retry', failure: { reason: 'ReconcileFailed' } });
    expect(statusWrites(w.api)).toEqual([]);
  });
});

describe('the pre-reconcile hook (hooks-v1 §3–§6)', () => {
  const cfg = () => config({ hook: HOOK });

  it('takes the answer’s status and warns once about ignored changes', async () => {
    const w = world();
    w.answer(() => ({ ok: true, object: { status: { quota: 'ok' } }, objectChangesIgnored: ['spec'] }));
    expect(await w.reconcile(cfg())).toEqual({ kind: 'done', writes: 2 });
    expect(w.api.instance?.status).toMatchObject({ quota: 'ok' });
    expect(w.hookCalls.map((call) => call.phase)).toEqual(['pre-reconcile']);
    expect(w.hookMetrics).toEqual(['pre-reconcile success']);
    const warning = [
      'Warning',
      'HookObjectChangesIgnored',
      'hook changes to spec are ignored; only status is applied',
    ];
    expect(w.events.filter(([type]) => type === 'Warning')).toEqual([warning]);
    await w.reconcile(cfg());
    expect(w.events.filter(([type]) => type === 'Warning')).toEqual([warning]);
    w.answer(() => ({ ok: true }));
    await w.reconcile(cfg());
    w.answer(() => ({ ok: true, objectChangesIgnored: ['spec'] }));
    await w.reconcile(cfg());
    expect(w.events.filter(([type]) => type === 'Warning')).toEqual([warning, warning]);
    // Another instance's warnings are its own; a vanished instance's are forgotten.
    await w.reconciler.reconcile(
      instanceKey('example.com', 'Mailer', 'shop', 'other'),
      w.api.instance,
      reconcileContext(),
    );
    await w.reconcile(cfg(), GONE);
    await w.reconcile(cfg(), mailer({ resourceVersion: '500' }));
    expect(w.events.filter(([type]) => type === 'Warning')).toEqual([warning, warning, warning, warning]);
  });

  it('an answer too deep to take is a transient HookFailed', async () => {
    const w = world();
    let deep: Record<string, unknown> = {};
    for (let depth = 0; depth < 200; depth++) deep = { deeper: deep };
    w.answer(() => ({ ok: true, object: { status: deep as never } }));
    const outcome = await w.reconcile(cfg());
    expect(outcome).toMatchObject({ kind: 'retry', failure: { reason: 'HookFailed' } });
    expect((outcome as { failure: { message: string } }).failure.message).toMatch(
      /^pre-reconcile hook: invalid response: /,
    );
  });

  it('continue: true goes on as if the hook had said nothing, after a Warning', async () => {
    const w = world();
    w.answer(() =>
      failure('pre-reconcile hook: HTTP 500: flaky', {
        continue: true,
        outcome: 'error-answer',
        status: 500,
      }),
    );
    expect(await w.reconcile(cfg())).toEqual({ kind: 'done', writes: 2 });
    expect(w.events[0]).toEqual(['Warning', 'HookFailed', 'pre-reconcile hook: HTTP 500: flaky']);
    expect(w.hookMetrics).toEqual(['pre-reconcile error-answer']);
  });

  it('a transient failure is retried, writing Ready=False/HookFailed and no child', async () => {
    const w = world();
    w.answer(() => failure('pre-reconcile hook: HTTP 500: down'));
    expect(await w.reconcile(cfg())).toEqual({
      kind: 'retry',
      failure: { reason: 'HookFailed', message: 'pre-reconcile hook: HTTP 500: down' },
    });
    expect(w.api.writes.map((write) => write.resource)).toEqual(['mailers']);
    expect(readyOf(w.api.instance)).toMatchObject({ status: 'False', reason: 'HookFailed' });
  });

  it('honours Retry-After: nothing is attempted until it has passed', async () => {
    const w = world();
    w.answer(() => failure('pre-reconcile hook: HTTP 503: busy', { retryAfterMs: 30_000, status: 503 }));
    expect(await w.reconcile(cfg())).toEqual({
      kind: 'retry',
      failure: { reason: 'HookFailed', message: 'pre-reconcile hook: HTTP 503: busy' },
      retryAfterMs: 30_000,
    });
    w.now.value = new Date(NOW.getTime() + 10_000);
    expect(await w.reconcile(cfg())).toEqual({ kind: 'requeue', afterMs: 20_000 });
    expect(w.hookCalls).toHaveLength(1);
    w.now.value = new Date(NOW.getTime() + 30_000);
    w.answer(() => ({ ok: true }));
    expect(await w.reconcile(cfg())).toMatchObject({ kind: 'done' });
    expect(w.hookCalls).toHaveLength(2);
  });

  it('parks on a permanent failure until the instance changes (§6.3)', async () => {
    const w = world();
    w.answer(() => failure('pre-reconcile hook: HTTP 400: bad plan', { permanent: true, transient: false }));
    expect(await w.reconcile(cfg())).toEqual({
      kind: 'terminal',
      failure: { reason: 'HookFailed', message: 'pre-reconcile hook: HTTP 400: bad plan' },
    });
    expect(await w.reconcile(cfg())).toEqual({ kind: 'done', writes: 0 });
    expect(w.hookCalls).toHaveLength(1);
    const relabelled = {
      ...w.api.instance!,
      metadata: { ...w.api.instance!.metadata, labels: { plan: 'b' } },
    };
    w.answer(() => ({ ok: true }));
    expect(await w.reconcile(cfg(), relabelled)).toMatchObject({ kind: 'done' });
    expect(w.hookCalls).toHaveLength(2);
  });

  it('a vanished instance is no longer parked nor waiting', async () => {
    const w = world();
    w.answer(() => failure('pre-reconcile hook: HTTP 400: no', { permanent: true, transient: false }));
    await w.reconcile(cfg());
    await w.reconcile(cfg(), GONE);
    w.answer(() => ({ ok: true }));
    expect(await w.reconcile(cfg())).toMatchObject({ kind: 'done' });
  });
});

describe('a deleted instance (hooks-v1 §7)', () => {
  const deleting = (finalizers: string[] = [FINALIZER]) =>
    mailer({ deletionTimestamp: '2026-11-26T06:59:00Z', finalizers });
  const finalizeHook = { ...HOOK, preReconcile: false, finalize: true };

  it('without Scoby’s finalizer: nothing to do', async () => {
    const w = world(deleting([]));
    expect(await w.reconcile(config({ hook: finalizeHook }))).toEqual({ kind: 'done', writes: 0 });
    expect(w.hookCalls).toEqual([]);
  });

  it('finalize agrees: the finalizer is released', async () => {
    const w = world(deleting());
    expect(await w.reconcile(config({ hook: finalizeHook }))).toEqual({ kind: 'done', writes: 1 });
    expect(w.hookCalls.map((call) => call.phase)).toEqual(['finalize']);
    expect(w.api.instance?.metadata.finalizers).toEqual([]);
  });

  it('finalize refuses with continue: the finalizer is released after a Warning', async () => {
    const w = world(deleting());
    w.answer(() => failure('finalize hook: HTTP 500: audit down', { continue: true }));
    expect(await w.reconcile(config({ hook: finalizeHook }))).toEqual({ kind: 'done', writes: 1 });
    expect(w.events).toEqual([['Warning', 'HookFailed', 'finalize hook: HTTP 500: audit down']]);
  });

  it('finalize refuses permanently: parked, the finalizer held, Ready=False/HookFailed', async () => {
    const w = world(deleting());
    w.answer(() => failure('finalize hook: HTTP 403: legal hold', { permanent: true, transient: false }));
    expect(await w.reconcile(config({ hook: finalizeHook }))).toEqual({
      kind: 'terminal',
      failure: { reason: 'HookFailed', message: 'finalize hook: HTTP 403: legal hold' },
    });
    expect(w.api.instance?.metadata.finalizers).toEqual([FINALIZER]);
    expect(readyOf(w.api.instance)).toMatchObject({ status: 'False', reason: 'HookFailed' });
    expect(await w.reconcile(config({ hook: finalizeHook }))).toEqual({ kind: 'done', writes: 0 });
    expect(w.hookCalls).toHaveLength(1);
  });

  it('a hook without finalize gets one best-effort call, and the finalizer is released', async () => {
    const w = world(deleting());
    w.answer(() => failure('finalize hook: HTTP 404: no such phase'));
    expect(await w.reconcile(config({ hook: HOOK }))).toEqual({ kind: 'done', writes: 1 });
    expect(w.hookCalls.map((call) => call.phase)).toEqual(['finalize']);
    expect(w.events).toEqual([['Normal', 'FinalizerReleased', `removed finalizer ${FINALIZER}`]]);
  });

  it('without a hook the finalizer is released at once', async () => {
    const w = world(deleting());
    expect(await w.reconcile(config())).toEqual({ kind: 'done', writes: 1 });
    expect(w.hookCalls).toEqual([]);
    expect(w.api.instance?.metadata.finalizers).toEqual([]);
  });

  it('a refused release says what was attempted', async () => {
    const w = world(deleting());
    w.api.refusals = [refuse(500, 'InternalError', (write) => write.subresource === undefined)];
    expect(await w.reconcile(config())).toEqual({
      kind: 'retry',
      failure: {
        reason: 'ReconcileFailed',
        message: `removing finalizer ${FINALIZER} failed: internalerror: refused`,
      },
    });
  });
});
