/**
 * Server-side apply merges the lists of built-in kinds by their schema's list-map keys: a Service's
 * ports are keyed by port and protocol (a key left out takes its default), so 53/TCP and 53/UDP stay
 * two ports however often they are applied. A custom resource's lists follow its CRD's schema: atomic
 * unless typed as a map or a set, whatever their field is called.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  freshNamespace,
  installEstablished,
  namespacedCrd,
  rawRequest,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;
let core: CoreV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  core = target.kubeConfig.makeApiClient(CoreV1Api);
  namespace = await freshNamespace(target, 'lists');
});
afterAll(() => target.stop());

function applyService(name: string, ports: unknown[], manager = 'lists') {
  return rawRequest(
    target,
    'PATCH',
    `/api/v1/namespaces/${namespace}/services/${name}?fieldManager=${manager}`,
    {
      contentType: 'application/apply-patch+yaml',
      text: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports } }),
    },
  );
}

describe('server-side apply of built-in lists', () => {
  it('keys a Service’s ports by port and protocol', async () => {
    const name = uniqueName('dns');
    const ports = [
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      { name: 'dns-udp', port: 53, protocol: 'UDP' },
    ];
    expect((await applyService(name, ports)).status).toBe(201);
    expect((await applyService(name, ports)).status).toBe(200);
    const stored = await core.readNamespacedService({ name, namespace });
    expect(stored.spec?.ports).toEqual([
      { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
      { name: 'dns-udp', port: 53, protocol: 'UDP', targetPort: 53 },
    ]);
  });

  it('removes the one port of the two sharing a number that an apply leaves out', async () => {
    const name = uniqueName('dropped');
    await applyService(name, [
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      { name: 'dns-udp', port: 53, protocol: 'UDP' },
    ]);
    await applyService(name, [{ name: 'dns-udp', port: 53, protocol: 'UDP' }]);
    const stored = await core.readNamespacedService({ name, namespace });
    expect(stored.spec?.ports).toEqual([{ name: 'dns-udp', port: 53, protocol: 'UDP', targetPort: 53 }]);
  });

  it('merges another manager’s port into the one with its port and protocol, not the first with its number', async () => {
    const name = uniqueName('shared');
    await applyService(name, [
      { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 1053 },
      { name: 'dns-udp', port: 53, protocol: 'UDP', targetPort: 2053 },
    ]);
    expect((await applyService(name, [{ name: 'dns-udp', port: 53, protocol: 'UDP' }], 'other')).status).toBe(
      200,
    );
    const stored = await core.readNamespacedService({ name, namespace });
    expect(stored.spec?.ports).toEqual([
      { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 1053 },
      { name: 'dns-udp', port: 53, protocol: 'UDP', targetPort: 2053 },
    ]);
  });

  it('takes a key’s default when an applied item leaves it out', async () => {
    const name = uniqueName('web');
    await applyService(name, [{ name: 'web', port: 80 }]);
    await applyService(name, [{ name: 'http', port: 80 }]);
    const stored = await core.readNamespacedService({ name, namespace });
    expect(stored.spec?.ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP', targetPort: 80 }]);
  });
});

describe('server-side apply of custom resource lists', () => {
  const group = `${uniqueName('lists')}.example.com`;
  const item = { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } };
  let path: string;

  beforeAll(async () => {
    await installEstablished(
      target,
      namespacedCrd(
        group,
        { plural: 'pipes', kind: 'Pipe' },
        {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: {
                // Named as a built-in merge list (a container's env merges by name), but untyped here.
                env: { type: 'array', items: item },
                stages: {
                  type: 'array',
                  x_kubernetes_list_type: 'map',
                  x_kubernetes_list_map_keys: ['name'],
                  items: { ...item, required: ['name'] },
                },
              },
            },
          },
        },
      ),
    );
    path = `/apis/${group}/v1/namespaces/${namespace}/pipes`;
  });

  function applyPipe(name: string, spec: Record<string, unknown>, manager: string, force = false) {
    return rawRequest(
      target,
      'PATCH',
      `${path}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`,
      {
        contentType: 'application/apply-patch+yaml',
        text: JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Pipe', metadata: { name }, spec }),
      },
    );
  }

  it('holds a list the schema does not type as one value: another manager conflicts, and force replaces it whole', async () => {
    expect((await applyPipe('atomic', { env: [{ name: 'A', value: '1' }] }, 'first')).status).toBe(201);
    const conflict = await applyPipe('atomic', { env: [{ name: 'B', value: '2' }] }, 'second');
    expect(conflict.status).toBe(409);
    expect((conflict.json as { message: string }).message).toBe(
      'Apply failed with 1 conflict: conflict with "first": .spec.env',
    );
    const forced = await applyPipe('atomic', { env: [{ name: 'B', value: '2' }] }, 'second', true);
    expect(forced.status).toBe(200);
    expect((forced.json as { spec: unknown }).spec).toEqual({ env: [{ name: 'B', value: '2' }] });
  });

  it('merges a list-type map by its keys, each manager owning its items', async () => {
    expect((await applyPipe('keyed', { stages: [{ name: 'a', value: '1' }] }, 'first')).status).toBe(201);
    const merged = await applyPipe('keyed', { stages: [{ name: 'b', value: '2' }] }, 'second');
    expect(merged.status).toBe(200);
    expect((merged.json as { spec: unknown }).spec).toEqual({
      stages: [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
    });
  });
});
