import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, KubeConfig, VersionApi, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../src/index.ts';
import { connect, inMemoryOnly, rawRequest, type Target } from './harness.ts';

let target: Target;

beforeAll(async () => {
  target = await connect();
});
afterAll(() => target.stop());

describe('lifecycle and kubeconfig', () => {
  it('starts in under a second on a random 127.0.0.1 port and stops promptly with watches open', async () => {
    const started = performance.now();
    const server = await startApiServer();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    let ended = false;
    await new Watch(server.kubeConfig()).watch(
      '/api/v1/configmaps',
      {},
      () => {},
      () => (ended = true),
    );
    const stopping = performance.now();
    await server.stop();
    expect(performance.now() - stopping).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toBe(true);
  });

  it('gives a kubeconfig YAML that client-node loads', async (context) => {
    const server = inMemoryOnly(target, context, 'the kubeconfig of the in-memory server');
    expect(server.kubeconfigYaml()).toBe(
      [
        'apiVersion: v1',
        'kind: Config',
        'preferences: {}',
        'clusters:',
        '  - name: in-memory',
        '    cluster:',
        `      server: ${server.url}`,
        '      insecure-skip-tls-verify: true',
        'users:',
        '  - name: in-memory',
        '    user:',
        '      token: in-memory',
        'contexts:',
        '  - name: in-memory',
        '    context:',
        '      cluster: in-memory',
        '      user: in-memory',
        '      namespace: default',
        'current-context: in-memory',
        '',
      ].join('\n'),
    );
    const directory = await mkdtemp(join(tmpdir(), 'kubeconfig-'));
    try {
      const file = join(directory, 'config');
      await server.writeKubeconfig(file);
      const loaded = new KubeConfig();
      loaded.loadFromFile(file);
      const namespaces = await loaded.makeApiClient(CoreV1Api).listNamespace();
      expect(namespaces.items.map((item) => item.metadata?.name)).toEqual(
        expect.arrayContaining(['default', 'kube-public', 'kube-system']),
      );
      if (!existsSync('/usr/bin/kubectl') && !existsSync('/usr/local/bin/kubectl')) {
        console.log('kubectl not installed: kubectl acceptance not checked');
        return;
      }
      const { stdout } = await promisify(execFile)('kubectl', [
        '--kubeconfig',
        file,
        'get',
        'namespace',
        'kube-system',
        '-o',
        'jsonpath={.metadata.name}',
      ]);
      expect(stdout).toBe('kube-system');
    } finally {
      await rm(directory, { recursive: true });
    }
  });
});

describe('discovery', () => {
  it('serves /version', async () => {
    const version = await target.kubeConfig.makeApiClient(VersionApi).getCode();
    expect(version.major).toBe('1');
    expect(version.gitVersion).toMatch(/^v1\.\d+\.\d+/);
  });

  it('serves /api and /api/v1 with the core resources', async () => {
    const api = (await rawRequest(target, 'GET', '/api')).json as { kind: string; versions: string[] };
    expect(api).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = (await rawRequest(target, 'GET', '/api/v1')).json as {
      kind: string;
      groupVersion: string;
      resources: { name: string }[];
    };
    expect(v1).toMatchObject({ kind: 'APIResourceList', groupVersion: 'v1' });
    expect(v1.resources.find((resource) => resource.name === 'configmaps')).toEqual({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
    });
    expect(v1.resources.find((resource) => resource.name === 'namespaces')).toMatchObject({
      namespaced: false,
      kind: 'Namespace',
    });
    expect(v1.resources.map((resource) => resource.name)).toEqual(
      expect.arrayContaining([
        'namespaces',
        'namespaces/status',
        'configmaps',
        'secrets',
        'services',
        'services/status',
        'serviceaccounts',
        'events',
      ]),
    );
  });

  it('serves /apis with the built-in groups and /apis/apps/v1', async () => {
    const apis = (await rawRequest(target, 'GET', '/apis')).json as {
      kind: string;
      groups: { name: string }[];
    };
    expect(apis.kind).toBe('APIGroupList');
    expect(apis.groups.map((group) => group.name)).toEqual(
      expect.arrayContaining([
        'apps',
        'events.k8s.io',
        'coordination.k8s.io',
        'apiextensions.k8s.io',
        'rbac.authorization.k8s.io',
      ]),
    );
    const appsV1 = (await rawRequest(target, 'GET', '/apis/apps/v1')).json as {
      resources: { name: string; namespaced: boolean }[];
    };
    expect(appsV1.resources.filter((resource) => resource.name.startsWith('deployments'))).toEqual([
      expect.objectContaining({
        name: 'deployments',
        namespaced: true,
        kind: 'Deployment',
        shortNames: ['deploy'],
      }),
      expect.objectContaining({
        name: 'deployments/status',
        namespaced: true,
        kind: 'Deployment',
        verbs: ['get', 'patch', 'update'],
      }),
    ]);
    expect((await rawRequest(target, 'GET', '/apis/apps')).json).toMatchObject({
      kind: 'APIGroup',
      name: 'apps',
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
  });

  it('answers 404 NotFound for unknown resources and 405 for verbs a path does not take', async () => {
    const unknown = await rawRequest(target, 'GET', '/apis/apps/v1/namespaces/default/widgets');
    expect(unknown).toEqual({
      status: 404,
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        code: 404,
      },
    });
    const notAllowed = await rawRequest(target, 'PUT', '/api/v1/namespaces/default/configmaps', {
      contentType: 'application/json',
      text: '{}',
    });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.json).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
  });
});
