/**
 * Write scopes: the fence is asked about each write with the scope its caller ran in (followed
 * through awaits and timers), and abortWrites can cut off the writes in flight of one scope while
 * the others land.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { WriteRefusedError } from '../../src/client/request-errors.ts';
import { writeScopes } from '../../src/client/write-scope.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: InMemoryApiServer;
const clients: DynamicClient[] = [];

function client(options: ConstructorParameters<typeof DynamicClient>[1] = {}): DynamicClient {
  const created = new DynamicClient(server.kubeConfig(), options);
  clients.push(created);
  return created;
}

beforeEach(async () => {
  server = await startApiServer();
});
afterEach(async () => {
  for (const created of clients.splice(0)) created.close();
  await server.stop();
});

async function failureOf(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

/** The POSTs the server served, as `<name> <code>`. */
function posted(): string[] {
  return server.requestLog
    .entries()
    .filter((entry) => entry.method === 'POST')
    .map((entry) => `${(entry.body as { metadata: { name: string } }).metadata.name} ${entry.code}`);
}

describe('write scopes', () => {
  it('hands the fence the scope of the caller, through awaits and timers, and none outside any', async () => {
    const seen: string[] = [];
    const writer = client({
      writeFence: {
        refusal: (scope) => {
          seen.push(scope ?? '(none)');
          return undefined;
        },
      },
    });
    expect(writeScopes.current()).toBeUndefined();
    await writer.create(CONFIGMAPS, configMap('outside'));
    await writeScopes.run('a', async () => {
      await writer.create(CONFIGMAPS, configMap('a-direct'));
      await writer.list(CONFIGMAPS, 'default');
      await sleep(5);
      await writer.create(CONFIGMAPS, configMap('a-after-awaits'));
      await writeScopes.run('nested', () => writer.create(CONFIGMAPS, configMap('nested')));
      await writer.create(CONFIGMAPS, configMap('a-after-nested'));
    });
    // Two scopes at once: each write is asked about with its own caller's scope, in the order sent.
    await Promise.all([
      writeScopes.run('late', async () => {
        await sleep(40);
        await writer.create(CONFIGMAPS, configMap('late'));
      }),
      writeScopes.run(
        'timer',
        () =>
          new Promise<void>((resolve, reject) => {
            setTimeout(() => writer.create(CONFIGMAPS, configMap('timer')).then(() => resolve(), reject), 10);
          }),
      ),
    ]);
    await writer.create(CONFIGMAPS, configMap('outside-again'));
    expect(seen).toEqual(['(none)', 'a', 'a', 'nested', 'a', 'timer', 'late', '(none)']);
    expect(writeScopes.current()).toBeUndefined();
  });

  it("refuses without sending the writes of the scope the fence refuses; other scopes' go through", async () => {
    const writer = client({
      writeFence: { refusal: (scope) => (scope === 'a' ? 'registration a is not held here' : undefined) },
    });
    server.requestLog.clear();
    const error = await writeScopes.run('a', () => failureOf(writer.create(CONFIGMAPS, configMap('from-a'))));
    expect(error).toBeInstanceOf(WriteRefusedError);
    expect(error.message).toBe(
      'POST /api/v1/namespaces/default/configmaps refused: registration a is not held here',
    );
    await writeScopes.run('b', () => writer.create(CONFIGMAPS, configMap('from-b')));
    await writer.create(CONFIGMAPS, configMap('unscoped'));
    expect(posted()).toEqual(['from-b 201', 'unscoped 201']);
  });

  it("abortWrites with a scope cuts off that scope's writes in flight and lets the others land; without one, all", async () => {
    const writer = client();
    server.requestLog.clear();
    const heal = server.faults.blackHole({ deliverOnHeal: true });
    const fromA = writeScopes.run('a', () => failureOf(writer.create(CONFIGMAPS, configMap('from-a'))));
    const fromATimer = writeScopes.run(
      'a',
      () =>
        new Promise<Error>((resolve) => {
          setTimeout(() => resolve(failureOf(writer.create(CONFIGMAPS, configMap('from-a-timer')))), 10);
        }),
    );
    const fromB = writeScopes.run('b', () => writer.create(CONFIGMAPS, configMap('from-b')));
    const unscoped = writer.create(CONFIGMAPS, configMap('unscoped'));
    await sleep(100);
    writer.abortWrites('registration a was lost', 'a');
    for (const error of [await fromA, await fromATimer]) {
      expect(error).toBeInstanceOf(WriteRefusedError);
      expect(error.message).toBe(
        'POST /api/v1/namespaces/default/configmaps refused: registration a was lost',
      );
    }
    heal();
    expect((await fromB).metadata.name).toBe('from-b');
    expect((await unscoped).metadata.name).toBe('unscoped');
    await sleep(100);
    expect(posted()).toEqual(['from-b 201', 'unscoped 201']);
    await expect(writer.get(CONFIGMAPS, 'default', 'from-a')).rejects.toMatchObject({ code: 404 });
    await expect(writer.get(CONFIGMAPS, 'default', 'from-a-timer')).rejects.toMatchObject({ code: 404 });

    // Without a scope every write in flight is cut off, scoped or not.
    const healAgain = server.faults.blackHole({ deliverOnHeal: true });
    const fromBAgain = writeScopes.run('b', () => failureOf(writer.create(CONFIGMAPS, configMap('b-again'))));
    const unscopedAgain = failureOf(writer.create(CONFIGMAPS, configMap('unscoped-again')));
    await sleep(100);
    writer.abortWrites('this process stopped leading');
    for (const error of [await fromBAgain, await unscopedAgain]) {
      expect(error.message).toMatch(/refused: this process stopped leading$/);
    }
    healAgain();
    await sleep(100);
    expect(posted()).toEqual(['from-b 201', 'unscoped 201']);
  });
});
