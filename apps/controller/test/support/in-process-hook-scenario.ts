/**
 * In-process hooks (docs/spec/hooks-v1.md §10) driving real instances, run alike on the in-memory
 * server and on the real control plane: a module's handlers change children and status, answer every
 * kind of error, time out, gate finalize, and a registration naming a module the operator did not
 * allow (or that cannot load) says so while the others run.
 */
import { expect, it } from 'vitest';
import { HookError } from '@scoby/hooks-v1/sdk';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import { hookedRegistration } from './hooks-fixtures.ts';
import type { ScriptedModule } from './hook-modules/scripted-module.ts';
import {
  adapterOf,
  conditionOf,
  eventViews,
  namespaceObject,
  REGISTRATION_API,
  registrationTarget,
  waitForCondition,
} from './scoby.ts';

export interface InProcessHookSetup {
  cluster: ClusterVerbs;
  /** The handlers the controller loaded for `moduleName`. */
  module: ScriptedModule;
  /** As allowed with --hook-module and named in spec.hook.module. */
  moduleName: string;
  /** Allowed, but it failed to load. */
  brokenModuleName: string;
  /** The message the broken module's load failed with. */
  brokenModuleMessage: string;
  /** A group and namespace of the file's own. */
  group: string;
  namespace: string;
}

const KIND = 'Mailer';
const PLURAL = 'mailers';
const REGISTRATION = 'mailer-in-process';

/** The namespace, CRD and registration of the scenario, waited for until Ready. */
export async function setUpInProcessHook(setup: InProcessHookSetup): Promise<void> {
  const { cluster, group } = setup;
  await cluster.apply(namespaceObject(setup.namespace));
  await cluster.apply(crdFor({ group, kind: KIND, plural: PLURAL }));
  await cluster.apply(
    hookedRegistration(REGISTRATION, `${PLURAL}.${group}`, {
      hook: { module: setup.moduleName, capabilities: ['pre-reconcile', 'finalize'], timeout: 'PT1S' },
    }),
  );
  await waitForCondition(cluster, registrationTarget(REGISTRATION), 'Ready', 'True');
}

export function inProcessHookTests(setup: () => InProcessHookSetup): void {
  const apiVersion = () => `${setup().group}/v1`;
  const create = (name: string) =>
    setup().cluster.apply({
      apiVersion: apiVersion(),
      kind: KIND,
      metadata: { name, namespace: setup().namespace },
      spec: { smtp: 'mail.internal' },
    });
  const instanceWhere = (name: string, description: string, probe: (object: KubeObject) => boolean) =>
    setup().cluster.waitFor(`${KIND} ${name}: ${description}`, async () => {
      const object = await setup().cluster.get(apiVersion(), KIND, setup().namespace, name);
      return object && probe(object) ? object : undefined;
    });
  const readyIs = (status: string, reason?: string, message?: string) => (object: KubeObject) => {
    const ready = conditionOf(object, 'Ready');
    return (
      ready?.status === status &&
      (reason === undefined || ready.reason === reason) &&
      (message === undefined || ready.message === message)
    );
  };
  const callsOf = (name: string, phase = 'pre-reconcile') =>
    setup().module.calls.filter((call) => call.instance === name && call.phase === phase);
  const hookFailedEvents = async (name: string) =>
    eventViews(await setup().cluster.events(setup().namespace, name)).filter(
      (event) => event.reason === 'HookFailed',
    );

  it('publishes module:<name> as the hook URL', async () => {
    const registration = await setup().cluster.get(
      REGISTRATION_API,
      'CRDRegistration',
      undefined,
      REGISTRATION,
    );
    expect((registration?.status as { annotations?: unknown }).annotations).toEqual({
      hookURL: `module:${setup().moduleName}`,
    });
  });

  it('changes children and status through the same validation as an HTTP hook (§5)', async () => {
    setup().module.script.set('changed', (request) => {
      const deployment = structuredClone(request.children?.['deployment']) as KubeObject;
      const pod = (deployment.spec as { template: { spec: { containers: { env?: unknown[] }[] } } }).template
        .spec;
      pod.containers[0]!.env = [...(pod.containers[0]!.env ?? []), { name: 'QUOTA', value: '500' }];
      return {
        object: { status: { ...(request.object.status as object), quota: 'checked' } },
        children: { ...request.children, deployment },
      };
    });
    await create('changed');
    const ready = await instanceWhere(
      'changed',
      'Ready=True with the hook status',
      (object) => readyIs('True')(object) && (object.status as { quota?: unknown }).quota === 'checked',
    );
    expect(ready.metadata.finalizers).toEqual([FINALIZER]);
    const deployment = await setup().cluster.get(
      'apps/v1',
      'Deployment',
      setup().namespace,
      `${REGISTRATION}-changed`,
    );
    expect(adapterOf(deployment).env).toEqual([
      { name: 'SMTP', value: 'mail.internal' },
      { name: 'QUOTA', value: '500' },
    ]);
  });

  it('parks on a permanent HookError (§6.2 rule 2)', async () => {
    setup().module.script.set('permanent', () => {
      throw new HookError('spec.smtp must be a fully qualified name', { status: 422, permanent: true });
    });
    await create('permanent');
    const message = 'pre-reconcile hook: HTTP 422: spec.smtp must be a fully qualified name';
    await instanceWhere('permanent', 'Ready=False/HookFailed', readyIs('False', 'HookFailed', message));
    const calls = callsOf('permanent').length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(callsOf('permanent')).toHaveLength(calls);
    expect(await hookFailedEvents('permanent')).toContainEqual({
      type: 'Warning',
      reason: 'HookFailed',
      message,
    });
  });

  it('retries a transient HookError with backoff (§6.2 rule 3)', async () => {
    setup().module.script.set('transient', () => {
      throw new HookError('quota service busy');
    });
    await create('transient');
    await instanceWhere(
      'transient',
      'Ready=False/HookFailed',
      readyIs('False', 'HookFailed', 'pre-reconcile hook: HTTP 500: quota service busy'),
    );
    await setup().cluster.waitFor('a retry', async () => callsOf('transient').length >= 3);
  });

  it('goes on without the hook after continue: true, with a Warning Event (§6.2 rule 1)', async () => {
    setup().module.script.set('tolerant', () => {
      throw new HookError('metrics backend down', { continue: true });
    });
    await create('tolerant');
    await instanceWhere('tolerant', 'Ready=True', readyIs('True'));
    expect(await hookFailedEvents('tolerant')).toContainEqual({
      type: 'Warning',
      reason: 'HookFailed',
      message: 'pre-reconcile hook: HTTP 500: metrics backend down',
    });
  });

  it('retries after the Retry-After of a HookError, permanent or not (§6.4)', async () => {
    setup().module.script.set('later', () => {
      throw new HookError('quota exhausted', { status: 503, permanent: true, retryAfterSeconds: 2 });
    });
    await create('later');
    await instanceWhere(
      'later',
      'Ready=False/HookFailed',
      readyIs('False', 'HookFailed', 'pre-reconcile hook: HTTP 503: quota exhausted'),
    );
    await setup().cluster.waitFor('the call after Retry-After', async () => callsOf('later').length >= 2);
    const [first, second] = callsOf('later');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900);
  });

  it('times out an asynchronous handler that never settles, and aborts its signal (§10)', async () => {
    setup().module.script.set('stuck', () => new Promise(() => undefined));
    await create('stuck');
    await instanceWhere(
      'stuck',
      'Ready=False/HookFailed',
      readyIs(
        'False',
        'HookFailed',
        `pre-reconcile hook: request to module:${setup().moduleName} timed out after 1s`,
      ),
    );
    expect(callsOf('stuck')[0]?.signal?.aborted).toBe(true);
  });

  it('holds a deleted instance while finalize refuses, and lets it go when it returns (§7)', async () => {
    let drained = false;
    setup().module.script.set('gated', (request) => {
      if (request.phase === 'finalize' && !drained) throw new HookError('queue not drained', { status: 409 });
    });
    const created = await create('gated');
    await instanceWhere('gated', 'Ready=True', readyIs('True'));
    await setup().cluster.remove(created);
    const held = await instanceWhere(
      'gated',
      'held with Ready=False/HookFailed',
      readyIs('False', 'HookFailed', 'finalize hook: HTTP 409: queue not drained'),
    );
    expect(held.metadata.finalizers).toEqual([FINALIZER]);
    expect(held.metadata.deletionTimestamp).toBeDefined();
    drained = true;
    await setup().cluster.waitFor(
      'the instance gone',
      async () => (await setup().cluster.get(apiVersion(), KIND, setup().namespace, 'gated')) === undefined,
    );
    expect(callsOf('gated', 'finalize').length).toBeGreaterThanOrEqual(2);
  });

  it('says why a registration names a module not allowed or not loadable; the others run on', async () => {
    const { cluster, group } = setup();
    const cases = [
      {
        name: 'mailer-not-allowed',
        module: '@acme/mailer-hook',
        reason: 'HookModuleNotAllowed',
        message: `hook module "@acme/mailer-hook" is not allowed: the controller allows ${JSON.stringify(setup().moduleName)}, ${JSON.stringify(setup().brokenModuleName)} (--hook-module, SCOBY_HOOK_MODULES)`,
      },
      {
        name: 'mailer-not-loaded',
        module: setup().brokenModuleName,
        reason: 'HookModuleNotLoaded',
        message: setup().brokenModuleMessage,
      },
    ];
    for (const entry of cases) {
      // A CRD of its own: the module is checked after ownership (registration.md §4).
      await cluster.apply(crdFor({ group: `${entry.name}.${group}`, kind: KIND, plural: PLURAL }));
      await cluster.apply(
        hookedRegistration(entry.name, `${PLURAL}.${entry.name}.${group}`, {
          hook: { module: entry.module, capabilities: ['pre-reconcile'] },
        }),
      );
      const registration = await waitForCondition(
        cluster,
        registrationTarget(entry.name),
        'ControllerReady',
        'False',
        entry.reason,
      );
      expect(conditionOf(registration, 'ControllerReady')?.message).toBe(entry.message);
      expect(conditionOf(registration, 'Ready')).toEqual({
        type: 'Ready',
        status: 'False',
        reason: entry.reason,
        message: entry.message,
      });
      await cluster.waitFor(`a Warning Event ${entry.reason}`, async () =>
        eventViews(await cluster.events('default', entry.name)).some(
          (event) =>
            event.type === 'Warning' && event.reason === entry.reason && event.message === entry.message,
        ),
      );
    }
    await waitForCondition(cluster, registrationTarget(REGISTRATION), 'Ready', 'True');
    setup().module.script.delete('after');
    await create('after');
    await instanceWhere('after', 'Ready=True', readyIs('True'));
  });
}
