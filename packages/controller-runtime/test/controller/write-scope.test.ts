/**
 * A controller's reconciles run in the write scope its `writeScope` option gives their key, so their
 * writes are fenced as that scope's; a key given none reconciles outside every scope, whichever scope
 * enqueued it.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../../src/client/dynamic-client.ts';
import { writeScopes } from '../../src/client/write-scope.ts';
import { Controller, type ControllerOptions } from '../../src/controller/controller.ts';
import { InformerFactory } from '../../src/informer/informer-factory.ts';
import { eventually } from '../../src/testing/eventually.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
const SECRETS: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespaced: true };

let server: InMemoryApiServer;
let client: DynamicClient;
let factory: InformerFactory;
let controller: Controller | undefined;

beforeEach(async () => {
  server = await startApiServer();
  // Refuses the writes of scope `fenced`, as a replica that lost that registration's Lease.
  client = new DynamicClient(server.kubeConfig(), {
    writeFence: {
      refusal: (scope) => (scope === 'fenced' ? 'registration fenced is not held here' : undefined),
    },
  });
  factory = new InformerFactory({ lister: client });
});
afterEach(async () => {
  await controller?.stop();
  controller = undefined;
  factory.stopAll();
  client.close();
  await server.stop();
});

/** A ConfigMap controller whose reconcile records its scope before and after a write of a Secret. */
async function started(writeScope: ControllerOptions['writeScope']): Promise<string[]> {
  const record: string[] = [];
  controller = new Controller({
    name: 'configmap-secrets',
    factory,
    for: { resource: CONFIGMAPS, group: '', kind: 'ConfigMap' },
    ...(writeScope ? { writeScope } : {}),
    reconcile: async (key) => {
      record.push(`${key.name} in ${writeScopes.current() ?? '(none)'}`);
      const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'default', name: key.name } };
      const outcome = await client.create(SECRETS, secret).then(
        () => 'wrote',
        (error: Error) => error.message,
      );
      record.push(`${key.name}: ${outcome}, then in ${writeScopes.current() ?? '(none)'}`);
    },
  });
  expect(await controller.waitForSync(5_000)).toBe(true);
  return record;
}

describe('Controller write scope', () => {
  it('runs each reconcile in the scope its key is given, so the fence judges its writes by it', async () => {
    const scopes: Record<string, string> = { alpha: 'fenced', beta: 'open' };
    const record = await started((key) => scopes[key.name]);
    const enqueue = (name: string) => controller!.enqueue(controller!.keyFor('default', name));
    enqueue('alpha');
    await eventually(() => expect(record).toHaveLength(2));
    enqueue('beta');
    await eventually(() => expect(record).toHaveLength(4));
    enqueue('gamma');
    await eventually(() => expect(record).toHaveLength(6));
    expect(record).toEqual([
      'alpha in fenced',
      'alpha: POST /api/v1/namespaces/default/secrets refused: registration fenced is not held here, then in fenced',
      'beta in open',
      'beta: wrote, then in open',
      'gamma in (none)',
      'gamma: wrote, then in (none)',
    ]);
    expect((await client.list(SECRETS, 'default')).items.map((secret) => secret.metadata.name)).toEqual([
      'beta',
      'gamma',
    ]);
  });

  it('never lends a reconcile the scope of the code that enqueued its key', async () => {
    const scopes: Record<string, string> = { alpha: 'open' };
    const record = await started((key) => scopes[key.name]);
    writeScopes.run('fenced', () => {
      controller!.enqueue(controller!.keyFor('default', 'alpha'));
      controller!.enqueue(controller!.keyFor('default', 'beta'));
    });
    await eventually(() => expect(record).toHaveLength(4));
    expect(record.toSorted()).toEqual([
      'alpha in open',
      'alpha: wrote, then in open',
      'beta in (none)',
      'beta: wrote, then in (none)',
    ]);
  });

  it('without the option, reconciles outside every scope', async () => {
    const record = await started(undefined);
    writeScopes.run('fenced', () => controller!.enqueue(controller!.keyFor('default', 'alpha')));
    await eventually(() => expect(record).toHaveLength(2));
    expect(record).toEqual(['alpha in (none)', 'alpha: wrote, then in (none)']);
  });
});
