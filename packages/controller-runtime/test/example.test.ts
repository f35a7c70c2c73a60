/**
 * The README's example controller (test/example/configmap-mirror.ts, shown there verbatim) against the
 * in-memory API server over HTTP: the informer, the work queue, the client, the metrics and the ops
 * server composed without anything of Scoby.
 */
import { readFile } from 'node:fs/promises';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DynamicClient, type ResourceRef } from '../src/index.ts';
import { captureLogs, eventually } from '../src/testing/index.ts';
import { startMirrorController } from './example/configmap-mirror.ts';

const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };

let server: InMemoryApiServer;
let client: DynamicClient;
let controller: Awaited<ReturnType<typeof startMirrorController>> | undefined;

beforeEach(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
});
afterEach(async () => {
  await controller?.stop();
  controller = undefined;
  client.close();
  await server.stop();
});

const configMap = (name: string, data: Record<string, string>, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name, labels },
  data,
});

/** The controller's writes, as the API server logged them. */
const writes = () =>
  server.requestLog
    .entries()
    .filter((entry) => entry.method !== 'GET')
    .map(({ method, path, query, contentType, body, code }) => ({
      method,
      path,
      query,
      contentType,
      body,
      code,
    }));

async function scrape(path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${controller?.opsPort}${path}`);
  return { status: response.status, body: await response.text() };
}

describe('the example controller', () => {
  it('mirrors each labelled ConfigMap with one server-side apply, and again when its data changes', async () => {
    const source = await client.create(
      CONFIGMAPS,
      configMap('settings', { colour: 'blue' }, { 'example.com/mirror': 'true' }),
    );
    await client.create(CONFIGMAPS, configMap('unlabelled', { colour: 'red' }));
    server.requestLog.clear();

    controller = await startMirrorController(server.kubeConfig(), captureLogs('warn').logger);
    const mirror = await eventually(() => client.get(CONFIGMAPS, 'default', 'settings-mirror'));
    expect(mirror).toMatchObject({
      data: { colour: 'blue' },
      metadata: {
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: 'settings',
            uid: source.metadata.uid,
            controller: true,
          },
        ],
      },
    });
    const apply = {
      method: 'PATCH',
      path: '/api/v1/namespaces/default/configmaps/settings-mirror',
      query: { fieldManager: 'configmap-mirror', force: 'true' },
      contentType: 'application/apply-patch+yaml',
      code: 200,
    };
    expect(writes()).toEqual([
      { ...apply, code: 201, body: expect.objectContaining({ data: { colour: 'blue' } }) },
    ]);

    server.requestLog.clear();
    await client.patch(CONFIGMAPS, 'default', 'settings', { data: { colour: 'green' } });
    await eventually(async () =>
      expect((await client.get(CONFIGMAPS, 'default', 'settings-mirror')).data).toEqual({ colour: 'green' }),
    );
    expect(writes().slice(1)).toEqual([
      { ...apply, body: expect.objectContaining({ data: { colour: 'green' } }) },
    ]);
    await expect(client.get(CONFIGMAPS, 'default', 'unlabelled-mirror')).rejects.toThrow(/not found/);
  });

  it("serves controller-runtime's metrics of its reconciles and requests, and /readyz once its cache synced", async () => {
    await client.create(CONFIGMAPS, configMap('a', { n: '1' }, { 'example.com/mirror': 'true' }));
    await client.create(CONFIGMAPS, configMap('b', { n: '2' }, { 'example.com/mirror': 'true' }));
    controller = await startMirrorController(server.kubeConfig(), captureLogs('warn').logger);

    expect(await scrape('/readyz')).toEqual({ status: 200, body: 'ok\n' });
    const metrics = await eventually(async () => {
      const { body } = await scrape('/metrics');
      expect(body).toContain(
        'controller_runtime_reconcile_total{controller="configmap-mirror",result="success"} 2\n',
      );
      return body;
    });
    expect(metrics).toContain('controller_runtime_reconcile_errors_total{controller="configmap-mirror"} 0\n');
    expect(metrics).toContain('workqueue_adds_total{name="configmap-mirror"} 2\n');
    expect(metrics).toMatch(
      /rest_client_requests_total\{code="201",method="PATCH",host="127\.0\.0\.1:\d+"\} 2\n/,
    );
  });

  it('is shown verbatim in the README', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const example = await readFile(new URL('./example/configmap-mirror.ts', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```\n');
  });
});
