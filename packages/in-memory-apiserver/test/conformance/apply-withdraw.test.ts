/**
 * What an apply that leaves out a field its manager applied before removes: the whole field, with
 * the values the server defaulted inside it, when no other manager owns anything in it (the applier
 * owned the field itself, as structured-merge-diff records it), a keyed list included; only the
 * manager's own parts when another manager owns some of it.
 */
import { AppsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, rawRequest, uniqueName, type Target } from './harness.ts';

let target: Target;
let apps: AppsV1Api;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  apps = target.kubeConfig.makeApiClient(AppsV1Api);
  namespace = await freshNamespace(target, 'withdraw');
});
afterAll(() => target.stop());

function deployment(name: string, container: Record<string, unknown>, annotations?: Record<string, string>) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'example.com/app:1', ...container }] },
      },
    },
  };
}

function apply(name: string, body: unknown, manager: string) {
  return rawRequest(
    target,
    'PATCH',
    `/apis/apps/v1/namespaces/${namespace}/deployments/${name}?fieldManager=${manager}`,
    { contentType: 'application/apply-patch+yaml', text: JSON.stringify(body) },
  );
}

describe('server-side apply withdrawing a field', () => {
  it('removes a probe it applied before, with the values the server defaulted in it', async () => {
    const name = uniqueName('probe');
    const probe = { httpGet: { port: 8080 } };
    expect((await apply(name, deployment(name, { livenessProbe: probe }), 'owner')).status).toBe(201);
    const before = await apps.readNamespacedDeployment({ name, namespace });
    expect(before.spec?.template.spec?.containers[0]?.livenessProbe).toEqual({
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    const withdrawn = await apply(name, deployment(name, {}), 'owner');
    expect(withdrawn.status).toBe(200);
    const after = await apps.readNamespacedDeployment({ name, namespace });
    expect(after.spec?.template.spec?.containers[0]?.livenessProbe).toBeUndefined();
  });

  it('removes a keyed list it applied before, not leaving it empty', async () => {
    const name = uniqueName('ports');
    const ports = [{ name: 'http', containerPort: 8080 }];
    expect((await apply(name, deployment(name, { ports }), 'owner')).status).toBe(201);
    expect((await apply(name, deployment(name, {}), 'owner')).status).toBe(200);
    const after = await apps.readNamespacedDeployment({ name, namespace });
    expect(after.spec?.template.spec?.containers[0]).not.toHaveProperty('ports');
  });

  it('keeps what another manager applied in a map it leaves out', async () => {
    const name = uniqueName('shared');
    expect((await apply(name, deployment(name, {}, { mine: 'a' }), 'owner')).status).toBe(201);
    const theirs = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, annotations: { theirs: 'b' } },
    };
    expect((await apply(name, theirs, 'other')).status).toBe(200);
    expect((await apply(name, deployment(name, {}), 'owner')).status).toBe(200);
    const after = await apps.readNamespacedDeployment({ name, namespace });
    // kube-controller-manager may have added its revision annotation by now.
    expect(after.metadata?.annotations?.theirs).toBe('b');
    expect(after.metadata?.annotations).not.toHaveProperty('mine');
  });
});
