/**
 * A hook phase is one row of hooks-v1's phase table (packages/hooks-v1/src/phases.ts). A throw-away
 * phase registered there is read, as its row says, by everything that handles phases: failure
 * policy, in-process modules, the reconcile's finalizer and its deletion calls, the release of
 * finalizers, the registration's capabilities (through their generated copy) and `scoby hook
 * check`'s sequence; unregistered, none of them knows it. (The SDK's side, dispatch and the request
 * validators, is shown in packages/hooks-v1/test/phase-table.test.ts.)
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createUrlTransport,
  hookPhases,
  registerHookPhase,
  type HookCall,
  type HookPhase,
  type HookResult,
} from '@scoby/hooks-v1/client';
import type { FormFactorPlugin } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import { FINALIZER } from '@scoby/registration';
import { hookCapabilitiesModule } from '../../scripts/built-in-tables.ts';
import { runChecks } from '../../src/cli/hook-check/run-checks.ts';
import { loadHookModules } from '../../src/hook-modules/load.ts';
import { callsHookAt, declaredPhases } from '../../src/instance/declared-phases.ts';
import { ignoresHookFailure } from '../../src/instance/hook-failure-policy.ts';
import { askHook, hookCall } from '../../src/instance/hook-request.ts';
import { planBeforeHook } from '../../src/instance/plan/before-hook.ts';
import type { InstanceConfig } from '../../src/instance/instance-config.ts';
import { InstanceReconciler } from '../../src/instance/reconcile.ts';
import { releaseFinalizer } from '../../src/instance/release-finalizer.ts';
import type { ChildStore } from '../../src/instance/children/write-children.ts';
import { deletionDependencies, instanceKey, reconcileContext } from '../instance/reconcile-context.ts';
import { THROW_AWAY_PHASE } from '../support/throw-away-phase.ts';
import { planTarget } from '../instance/plan/plan-target.ts';

async function loadModule(text: string) {
  const dir = await mkdtemp(join(tmpdir(), 'scoby-hook-phase-'));
  await writeFile(join(dir, 'hook.mjs'), text);
  return (await loadHookModules(['./hook.mjs'], dir)).get('./hook.mjs');
}

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});
function register(descriptor = THROW_AWAY_PHASE as Parameters<typeof registerHookPhase>[0]) {
  const unregister = registerHookPhase(descriptor);
  cleanups.push(unregister);
  return unregister;
}

/** A hook on HTTP that lets every instance go and refuses what is not a request, and the phases it was asked. */
async function consentingHook() {
  const phases: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let phase: unknown;
      try {
        phase = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { phase?: unknown }).phase;
      } catch {
        phase = undefined;
      }
      if (typeof phase !== 'string') {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end('{"message": "not a hook request"}');
        return;
      }
      phases.push(phase);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return { url, phases };
}

const INSTANCE = {
  apiVersion: 'example.com/v1',
  kind: 'Mailer',
  metadata: { name: 'one', namespace: 'default', deletionTimestamp: '2025-03-02T10:15:00Z' },
};
const DESTINATION = { url: 'http://hook/', timeoutMs: 2000, formFactor: 'deployment', managedKinds: [] };
const declaring = (...capabilities: string[]) => ({ capabilities });

const consenting = (): HookResult => ({ ok: true });

/**
 * A reconciler of one deleted instance holding Scoby's finalizer, for a registration declaring
 * `capabilities`: the calls its hook got (answered by `answer`) and the finalizer patches it sent.
 */
function deletedInstanceReconciler(
  capabilities: string[],
  answer: (call: HookCall) => HookResult = consenting,
) {
  const calls: HookCall[] = [];
  const patches: unknown[] = [];
  const instance: KubeObject = {
    ...INSTANCE,
    metadata: { ...INSTANCE.metadata, uid: 'u-1', resourceVersion: '40', finalizers: [FINALIZER] },
  };
  const deps = deletionDependencies(
    async (body) => {
      patches.push(body);
      return { ...instance, metadata: { ...instance.metadata, finalizers: [] } };
    },
    async (call) => {
      calls.push(call);
      return answer(call);
    },
    new Date('2025-03-02T10:15:01Z'),
  );
  const config = {
    registrationName: 'mailer',
    revision: 'r1',
    plugin: { name: 'deployment', managedKinds: [] } as unknown as FormFactorPlugin,
    crd: {
      group: 'example.com',
      version: 'v1',
      // No status subresource: a held instance's stop writes no status.
      status: { subresource: false, conditionFields: [], observedGeneration: false, address: false },
    },
    conditionTypes: ['Ready'],
    hookConditionTypes: [],
    spec: { hook: { capabilities } },
    instanceResource: { group: 'example.com', version: 'v1', resource: 'mailers', namespaced: true },
    hook: { url: DESTINATION.url, timeoutMs: DESTINATION.timeoutMs },
    writeVerbs: { status: 'patch', finalizers: 'patch' },
  } as unknown as InstanceConfig;
  const reconciler = new InstanceReconciler(deps, config, {} as ChildStore);
  const reconcile = () =>
    reconciler.reconcile(
      instanceKey('example.com', 'Mailer', 'default', 'one'),
      instance,
      reconcileContext(),
    );
  return { instance, reconcile, calls, patches };
}

describe('a hook phase registered in the phase table', () => {
  it('falls under failurePolicy as its row says', () => {
    const unreachable = {
      ok: false as const,
      message: 'hook unreachable',
      outcome: 'transport-error' as const,
      permanent: false,
      continue: false,
      transient: true,
    };
    // A phase of the spec is also a member of the wire type HookPhase (hooks-v1's types.ts).
    const phase = 'archive' as HookPhase;
    expect(ignoresHookFailure('Ignore', phase, unreachable)).toBe(false);
    const unregister = register();
    expect(ignoresHookFailure('Ignore', phase, unreachable)).toBe(true);
    expect(ignoresHookFailure('Fail', phase, unreachable)).toBe(false);
    unregister();
    register({ ...THROW_AWAY_PHASE, failurePolicyApplies: false });
    expect(ignoresHookFailure('Ignore', phase, unreachable)).toBe(false);
  });

  it('is a handler an in-process hook module may export alone', async () => {
    const onlyArchive = 'export default { archive: () => undefined };';
    expect(await loadModule(onlyArchive)).toEqual({
      ok: false,
      message: 'hook module "./hook.mjs": default export has neither preReconcile nor finalize',
    });
    register();
    expect(await loadModule(onlyArchive)).toMatchObject({ ok: true });
    expect(await loadModule('export default { archive: 1 };')).toEqual({
      ok: false,
      message: 'hook module "./hook.mjs": default export archive must be a function',
    });
  });

  it("puts Scoby's finalizer on the instances of a registration declaring it, as a deletion gate", () => {
    expect(callsHookAt(declaring('archive'), 'deletion')).toBe(false);
    register();
    expect(declaredPhases(declaring('archive', 'pre-reconcile')).map(({ phase }) => phase)).toEqual([
      'pre-reconcile',
      'archive',
    ]);
    expect(callsHookAt(declaring('archive'), 'deletion')).toBe(true);
    expect(callsHookAt(declaring('archive'), 'reconcile')).toBe(false);
  });

  it("is called by the reconcile of a deleted instance, in the table's order, before its finalizer goes", async () => {
    register();
    const alone = deletedInstanceReconciler(['archive']);
    await alone.reconcile();
    expect(alone.calls.map(({ phase, object }) => [phase, Object.keys(object).sort()])).toEqual([
      ['archive', ['apiVersion', 'kind', 'metadata']],
    ]);
    expect(alone.patches).toEqual([{ metadata: { finalizers: [], resourceVersion: '40' } }]);

    const both = deletedInstanceReconciler(['archive', 'finalize']);
    await both.reconcile();
    expect(both.calls.map(({ phase }) => phase)).toEqual(['finalize', 'archive']);
    expect(both.patches).toHaveLength(1);

    const held = deletedInstanceReconciler(['archive', 'finalize'], ({ phase }) =>
      phase === 'finalize'
        ? {
            ok: false,
            message: 'held',
            outcome: 'error-answer',
            permanent: false,
            continue: false,
            transient: true,
            status: 409,
          }
        : { ok: true },
    );
    expect(await held.reconcile()).toMatchObject({
      error: { name: 'InstanceReconcileError', failure: { reason: 'HookFailed', message: 'held' } },
    });
    expect(held.calls.map(({ phase }) => phase)).toEqual(['finalize']);
    expect(held.patches).toEqual([]);
  });

  it('is called once, best-effort, when the finalizer of a deleted instance is released', async () => {
    register();
    const calls: HookPhase[] = [];
    const { instance } = deletedInstanceReconciler([]);
    await releaseFinalizer(instance, {
      destination: DESTINATION,
      callHook: async (call): Promise<HookResult> => {
        calls.push(call.phase);
        return { ok: true };
      },
      removeFinalizer: async (current) => current,
      events: { emit: () => {} },
    });
    expect(calls).toEqual(['finalize', 'archive']);
  });

  it('called while reconciling, is asked by the plan and sent by the one function the reconcile and scoby render share', async () => {
    register({
      ...THROW_AWAY_PHASE,
      phase: 'enrich',
      capabilities: ['enrich'],
      calledAt: 'reconcile',
      handler: 'enrich',
      answersWithChanges: true,
    });
    const target = planTarget({
      hook: { version: 'v1', address: { uri: 'http://hook.example/v1' }, capabilities: ['pre-reconcile'] },
    });
    // Validated with the committed capabilities; the throw-away row is declared as a regenerated copy would allow.
    (target.spec.hook as { capabilities: string[] }).capabilities = ['enrich', 'pre-reconcile'];
    const instance = {
      apiVersion: 'example.com/v1',
      kind: 'Mailer',
      metadata: { name: 'orders', namespace: 'shop', uid: 'u-1', generation: 1 },
      spec: {},
    };
    const before = await planBeforeHook(target, instance, '2026-11-30T01:00:00Z', {
      controllerNamespace: 'scoby-system',
      controllerConfigMap: () => undefined,
      resolveAddress: async () => ({ ok: false, message: 'no addresses here' }),
    });
    if (before.kind !== 'prepared') throw new Error('the render failed');
    // In the table's order, each with the instance and the children, as pre-reconcile's.
    expect(before.hookRequests.map(({ phase }) => phase)).toEqual(['pre-reconcile', 'enrich']);
    expect(before.hookRequests[1]!.children).toEqual(before.hookRequests[0]!.children);
    const sent: string[] = [];
    const answers = await askHook(DESTINATION, before.hookRequests, async (call) => {
      sent.push(`${call.phase} ${Object.keys(call.children ?? {}).join(',')}`);
      return consenting();
    });
    expect(sent).toEqual(['pre-reconcile deployment', 'enrich deployment']);
    expect(answers.map(({ phase }) => phase)).toEqual(['pre-reconcile', 'enrich']);
  });

  it('is a capability a registration may declare, under each of its spellings', () => {
    const committed = hookCapabilitiesModule(hookPhases());
    register();
    const withRow = hookCapabilitiesModule(hookPhases());
    expect(withRow).not.toBe(committed);
    expect(withRow).toContain('"pre-reconcile",\n  "finalize",\n  "archive"\n] as const;');
    expect(withRow).toContain('"archive": "archive",\n  "archival": "archive"\n} as const;');
  });

  it("is called and called again by scoby hook check, its cases citing its row's section", async () => {
    register();
    const hook = await consentingHook();
    const transport = createUrlTransport(hook.url);
    cleanups.push(() => transport.close());
    const checks = await runChecks({
      send: transport.send,
      formFactorFormat: 'string',
      formFactor: 'deployment',
      timeoutMs: 2000,
      instances: [
        {
          name: 'default/one',
          calls: { archive: () => ({ call: hookCall(DESTINATION, 'archive' as HookPhase, INSTANCE) }) },
        },
      ],
      now: () => Date.parse('2025-03-02T10:15:00Z'),
      elapsed: () => 0,
    });
    expect(
      checks
        .filter((check) => check.instance === 'default/one')
        .map(({ case: name, result, section }) => `${name} ${result} ${section}`),
    ).toEqual([
      'pre-reconcile skip hooks-v1.md §3–§5',
      'pre-reconcile-repeated skip hooks-v1.md §4',
      'key-order skip hooks-v1.md §3',
      'finalize skip hooks-v1.md §7',
      'finalize-repeated skip hooks-v1.md §4, §7',
      'archive pass hooks-v1.md §7',
      'archive-repeated pass hooks-v1.md §4, §7',
      'serves-after-probes pass hooks-v1.md §11.2',
    ]);
    expect(hook.phases.filter((phase) => phase === 'archive')).toHaveLength(3);
  });
});
