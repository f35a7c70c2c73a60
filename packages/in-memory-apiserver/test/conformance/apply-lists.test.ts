/**
 * Server-side apply merges the lists of built-in kinds by their schema's list-map keys: a Service's
 * ports are keyed by port and protocol (a key left out takes its default), so 53/TCP and 53/UDP stay
 * two ports however often they are applied.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, rawRequest, uniqueName, type Target } from './harness.ts';

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
