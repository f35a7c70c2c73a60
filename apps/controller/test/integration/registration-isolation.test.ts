/**
 * One registration's hanging hook never holds up another registration: its reconciles take at most
 * its own share of the process-wide slots (--concurrency), and releasing instance finalizers when a
 * registration is deleted runs beside the registration work, in parallel with a bound
 * (docs/spec/registration.md §6.6–§6.7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import { conditionOf, eventViews, REGISTRATION_API, sleep } from '../support/scoby.ts';
import { instanceWhere, registerExample, registrationReady } from '../support/hooks-fixtures.ts';
import { errorReply, startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';

/** Per registration; the process runs at most four times this many reconciles. */
const CONCURRENCY = 2;
const HANGING_INSTANCES = 4 * CONCURRENCY + 4;

let cluster: TestCluster;
const hooks: ScriptedHook[] = [];

beforeAll(async () => {
  cluster = await startTestCluster({ concurrency: CONCURRENCY });
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } });
});
afterAll(async () => {
  // Hooks first: their dropped connections end the hanging calls the controller drains on stop.
  await Promise.all(hooks.map((hook) => hook.close()));
  await cluster.stop();
});

async function hook(...args: Parameters<typeof startScriptedHook>): Promise<ScriptedHook> {
  const started = await startScriptedHook(...args);
  hooks.push(started);
  return started;
}

/** A CRD `<plural>.<plural>.example.com` of kind `kind`, and a registration named after the plural. */
async function register(
  kind: string,
  plural: string,
  hookUrl?: string,
  capabilities: string[] = ['pre-reconcile'],
): Promise<void> {
  await registerExample(
    cluster,
    kind,
    plural,
    hookUrl === undefined ? undefined : { address: { uri: hookUrl }, capabilities, timeout: 'PT1H' },
  );
}

function instanceOf(kind: string, plural: string, name: string): KubeObject {
  return {
    apiVersion: `${plural}.example.com/v1`,
    kind,
    metadata: { name, namespace: 'apps' },
    spec: { owner: plural },
  };
}

const isReady = (object: KubeObject) => conditionOf(object, 'Ready')?.status === 'True';

describe('reconcile slots', () => {
  it("a registration whose hook hangs holds only its own share; another registration's instance converges at once", async () => {
    const hanging = await hook(() => 'hang');
    await register('Stuck', 'stucks', hanging.url);
    await register('Fine', 'fines');
    await Promise.all([registrationReady(cluster, 'stucks'), registrationReady(cluster, 'fines')]);
    for (let i = 0; i < HANGING_INSTANCES; i++) {
      await cluster.apply(instanceOf('Stuck', 'stucks', `stuck-${i}`));
    }
    await cluster.waitFor('the hanging hook holds its share', async () =>
      hanging.requests.length >= CONCURRENCY ? true : undefined,
    );

    const started = performance.now();
    await cluster.apply(instanceOf('Fine', 'fines', 'fine'));
    await instanceWhere(cluster, 'fines.example.com/v1', 'Fine', 'apps', 'fine', 'Ready=True', isReady, 5000);
    const convergedMs = performance.now() - started;
    expect(convergedMs).toBeLessThan(2000);
    // Only the registration's own share of the slots ever reached its hook.
    expect(hanging.requests).toHaveLength(CONCURRENCY);
  });
});

describe('finalizer release on registration deletion', () => {
  it('two registrations whose finalize hooks hang do not hold up a third registration', async () => {
    const finalizeHangs = await hook((request) =>
      request.body.phase === 'finalize' ? 'hang' : { status: 204 },
    );
    for (const [kind, plural] of [
      ['Held', 'helds'],
      ['Kept', 'kepts'],
    ] as const) {
      await register(kind, plural, finalizeHangs.url, ['pre-reconcile', 'finalize']);
      await registrationReady(cluster, plural);
      await cluster.apply(instanceOf(kind, plural, 'doomed'));
      await instanceWhere(cluster, `${plural}.example.com/v1`, kind, 'apps', 'doomed', 'Ready=True', isReady);
      await cluster.remove(instanceOf(kind, plural, 'doomed'));
      await cluster.waitFor(`finalize call for ${plural}`, async () =>
        finalizeHangs.callsFor('finalize').some((call) => call.body.object.kind === kind) ? true : undefined,
      );
      await cluster.remove({
        apiVersion: REGISTRATION_API,
        kind: 'CRDRegistration',
        metadata: { name: plural },
      });
    }
    // Both releases are under way, each waiting on its hanging hook.
    await sleep(100);

    const started = performance.now();
    await register('Later', 'laters');
    await registrationReady(cluster, 'laters');
    const readyMs = performance.now() - started;
    expect(readyMs).toBeLessThan(2000);
  });

  it('reports a failed release on the registration and retries it until the registration can go', async () => {
    const agreeing = await hook(() => ({ status: 204 }));
    await register('Flaky', 'flakies', agreeing.url, ['pre-reconcile', 'finalize']);
    await registrationReady(cluster, 'flakies');
    await cluster.apply(instanceOf('Flaky', 'flakies', 'f1'));
    await instanceWhere(cluster, 'flakies.example.com/v1', 'Flaky', 'apps', 'f1', 'Ready=True', isReady);
    cluster.server.faults.failNext(
      { verb: 'patch', resource: 'flakies', name: 'f1' },
      { code: 500, message: 'etcd is unavailable' },
    );

    await cluster.remove({
      apiVersion: REGISTRATION_API,
      kind: 'CRDRegistration',
      metadata: { name: 'flakies' },
    });
    await cluster.waitFor('registration gone', async () =>
      (await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, 'flakies')) === undefined
        ? true
        : undefined,
    );
    const released = await cluster.get('flakies.example.com/v1', 'Flaky', 'apps', 'f1');
    expect(released?.metadata.finalizers).toBeUndefined();
    const events = await cluster.waitFor('FinalizerReleaseFailed Event', async () => {
      const views = eventViews(await cluster.events('default', 'flakies'));
      return views.length > 0 ? views.filter((event) => event.reason.startsWith('Finalizer')) : undefined;
    });
    expect(events).toEqual([
      {
        type: 'Warning',
        reason: 'FinalizerReleaseFailed',
        message: 'releasing finalizers failed: apps/f1: etcd is unavailable',
      },
    ]);
  });

  it('calls finalize for the deleted instances in parallel, at most --concurrency at once', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const seen = new Set<string>();
    // The instance's own finalize call is refused for good (the instance is parked); the release's
    // one best-effort call answers after 300 ms.
    const slowRelease = await hook(async (request) => {
      if (request.body.phase !== 'finalize') return { status: 204 };
      const name = request.body.object.metadata.name ?? '';
      if (!seen.has(name)) {
        seen.add(name);
        return errorReply(409, { message: 'not yet', permanent: true });
      }
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await sleep(300);
      inFlight--;
      return { status: 204 };
    });
    await register('Batch', 'batches', slowRelease.url, ['pre-reconcile', 'finalize']);
    await registrationReady(cluster, 'batches');
    const names = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'];
    for (const name of names) await cluster.apply(instanceOf('Batch', 'batches', name));
    for (const name of names) {
      await instanceWhere(cluster, 'batches.example.com/v1', 'Batch', 'apps', name, 'Ready=True', isReady);
      await cluster.remove(instanceOf('Batch', 'batches', name));
    }
    await cluster.waitFor('every instance refused once', async () =>
      seen.size === names.length ? true : undefined,
    );

    await cluster.remove({
      apiVersion: REGISTRATION_API,
      kind: 'CRDRegistration',
      metadata: { name: 'batches' },
    });
    await cluster.waitFor(
      'instances released and gone',
      async () =>
        (await cluster.list('batches.example.com/v1', 'Batch', 'apps')).length === 0 ? true : undefined,
      10_000,
    );
    expect(mostInFlight).toBe(CONCURRENCY);
    expect(slowRelease.callsFor('finalize')).toHaveLength(2 * names.length);
    await cluster.waitFor('registration gone', async () =>
      (await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, 'batches')) === undefined
        ? true
        : undefined,
    );
  });
});
