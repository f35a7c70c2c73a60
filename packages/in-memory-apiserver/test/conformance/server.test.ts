import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../src/index.ts';
import { connect, inMemoryOnly, rawRequest, uniqueName, type Target } from './harness.ts';
import {
  APPS_V1_RESOURCES,
  BUILTIN_GROUP_ORDER,
  CORE_V1_RESOURCES,
  NOT_SERVED_IN_MEMORY,
  OTHER_GROUP_RESOURCES,
} from './kube-discovery.ts';

let target: Target;

beforeAll(async () => {
  target = await connect();
});
afterAll(() => target.stop());

interface ResourceList {
  resources: { name: string }[];
}

/** The list with only the resources named in `expected` (the real server serves many more). */
function served(list: ResourceList, expected: { name: string }[]): ResourceList {
  const names = new Set(expected.map((resource) => resource.name));
  return { ...list, resources: list.resources.filter((resource) => names.has(resource.name)) };
}

describe('lifecycle and kubeconfig', () => {
  it('starts in under a second on a random 127.0.0.1 port and stops promptly with watches open', async (context) => {
    inMemoryOnly(target, context, 'the lifecycle of the in-memory server');
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
      // kubectl writes JSON to it (it would send protobuf to a server reporting v1.32 or later).
      const created = await promisify(execFile)('kubectl', [
        '--kubeconfig',
        file,
        'create',
        'configmap',
        'from-kubectl',
        '--from-literal=a=1',
      ]);
      expect(created.stdout).toBe('configmap/from-kubectl created\n');
    } finally {
      await rm(directory, { recursive: true });
    }
  });
});

describe('request bodies', () => {
  it('answers 415 to a body in another media type than JSON or YAML (differs: protobuf is not read)', async () => {
    const core = target.kubeConfig.makeApiClient(CoreV1Api);
    const name = uniqueName('media-types');
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name } } });
    const accepted = target.server
      ? 'application/json, application/yaml'
      : 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
    const unsupported = {
      status: 415,
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `the body of the request was in an unknown format - accepted media types include: ${accepted}`,
        reason: 'UnsupportedMediaType',
        code: 415,
      },
    };
    const configMap = JSON.stringify({ metadata: { name } });
    const collection = '/api/v1/namespaces/default/configmaps';
    expect(
      await rawRequest(target, 'POST', collection, { contentType: 'text/plain', text: configMap }),
    ).toEqual(unsupported);
    expect(
      await rawRequest(target, 'PUT', `${collection}/${name}`, {
        contentType: 'application/merge-patch+json',
        text: configMap,
      }),
    ).toEqual(unsupported);
    expect(
      await rawRequest(target, 'DELETE', `${collection}/${name}`, {
        contentType: 'application/x-www-form-urlencoded',
        text: '{"propagationPolicy":"Orphan"}',
      }),
    ).toEqual(unsupported);
    const yaml = await rawRequest(target, 'PUT', `${collection}/${name}`, {
      contentType: 'application/yaml; charset=utf-8',
      text: `metadata: {name: ${name}}\ndata: {from: yaml}\n`,
    });
    expect(yaml.status).toBe(200);
    expect((yaml.json as { data: unknown }).data).toEqual({ from: 'yaml' });
    await core.deleteNamespacedConfigMap({ name, namespace: 'default' });
  });
});

describe('discovery', () => {
  it('serves /api and /api/v1 with the core resources, as kube-apiserver does', async () => {
    const server = new URL(target.kubeConfig.getCurrentCluster()?.server ?? '');
    expect((await rawRequest(target, 'GET', '/api')).json).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: server.host }],
    });
    const v1 = (await rawRequest(target, 'GET', '/api/v1')).json as ResourceList;
    expect(served(v1, CORE_V1_RESOURCES)).toEqual({
      kind: 'APIResourceList',
      groupVersion: 'v1',
      resources: CORE_V1_RESOURCES,
    });
  });

  it('serves /apis with the built-in groups in kube-apiserver order, and their resource lists', async () => {
    const apis = (await rawRequest(target, 'GET', '/apis')).json as {
      kind: string;
      apiVersion: string;
      groups: { name: string }[];
    };
    expect(apis).toMatchObject({ kind: 'APIGroupList', apiVersion: 'v1' });
    const builtin = apis.groups.filter((group) => BUILTIN_GROUP_ORDER.includes(group.name));
    expect(builtin.map((group) => group.name)).toEqual(
      BUILTIN_GROUP_ORDER.filter((name) => builtin.some((group) => group.name === name)),
    );
    expect(builtin.map((group) => group.name)).toEqual(
      expect.arrayContaining([
        'apps',
        'events.k8s.io',
        'coordination.k8s.io',
        'apiextensions.k8s.io',
        'rbac.authorization.k8s.io',
      ]),
    );
    expect(apis.groups.find((group) => group.name === 'apps')).toEqual({
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
    expect((await rawRequest(target, 'GET', '/apis/apps')).json).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
    const appsV1 = (await rawRequest(target, 'GET', '/apis/apps/v1')).json as ResourceList;
    expect(served(appsV1, APPS_V1_RESOURCES)).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'apps/v1',
      resources: APPS_V1_RESOURCES,
    });
    for (const [groupVersion, resources] of Object.entries(OTHER_GROUP_RESOURCES)) {
      const list = (await rawRequest(target, 'GET', `/apis/${groupVersion}`)).json as ResourceList;
      expect(list).toEqual({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources });
    }
  });

  it('differs: /version reports v1.31.0 (kubectl 1.32 and later would send protobuf, which it does not read)', async () => {
    const version = (await rawRequest(target, 'GET', '/version')).json;
    if (target.server) {
      expect(version).toEqual({
        major: '1',
        minor: '31',
        gitVersion: 'v1.31.0',
        gitCommit: 'in-memory',
        gitTreeState: 'clean',
        buildDate: '2024-08-13T00:00:00Z',
        goVersion: 'go1.22.5',
        compiler: 'gc',
        platform: 'linux/amd64',
      });
    } else {
      expect(version).toMatchObject({
        major: '1',
        minor: '34',
        emulationMajor: '1',
        emulationMinor: '34',
        gitVersion: 'v1.34.4',
      });
    }
  });

  it('differs: serves only the resources Scoby and its tests use (no pods, replicasets, finalize)', async () => {
    for (const [groupVersion, missing] of Object.entries(NOT_SERVED_IN_MEMORY)) {
      const path = groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`;
      const names = ((await rawRequest(target, 'GET', path)).json as ResourceList).resources.map(
        (resource) => resource.name,
      );
      if (target.server) for (const name of missing) expect(names).not.toContain(name);
      else expect(names).toEqual(expect.arrayContaining(missing));
    }
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
        details: {},
        code: 404,
      },
    });
    const notAllowed = await rawRequest(target, 'PUT', '/api/v1/namespaces/default/configmaps', {
      contentType: 'application/json',
      text: '{}',
    });
    const methodNotAllowed = {
      status: 405,
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server does not allow this method on the requested resource',
        reason: 'MethodNotAllowed',
        details: {},
        code: 405,
      },
    };
    expect(notAllowed).toEqual(methodNotAllowed);
    // Namespaces take no deletecollection.
    expect(await rawRequest(target, 'DELETE', '/api/v1/namespaces?labelSelector=none%3Dnone')).toEqual(
      methodNotAllowed,
    );
  });
});
