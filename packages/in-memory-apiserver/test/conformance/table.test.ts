/**
 * Table responses (`kubectl get`): kube-apiserver's columns for the served built-ins and a CRD's
 * additionalPrinterColumns, with the same cells on both servers (ages as the printers round them).
 */
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeOpenApiData } from '../../src/openapi/kube-openapi-data.ts';
import {
  connect,
  freshNamespace,
  installEstablished,
  rawRequest,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'table');
});
afterAll(() => target.stop());

const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

interface Table {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string };
  columnDefinitions: { name: string; type: string; format: string; description: string; priority: number }[];
  rows: { cells: unknown[]; object?: { kind: string; apiVersion?: string; metadata: { name: string } } }[];
}

async function create(
  path: string,
  object: unknown,
): Promise<{ metadata: { name: string; creationTimestamp: string } }> {
  const created = await rawRequest(target, 'POST', path, {
    contentType: 'application/json',
    text: JSON.stringify(object),
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json as { metadata: { name: string; creationTimestamp: string } };
}

async function table(path: string, accept = TABLE): Promise<Table> {
  const reply = await rawRequest(target, 'GET', path, undefined, { Accept: accept });
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return reply.json as Table;
}

/** The single row of a one-object table, with the captured built-in columns checked. */
async function builtinRow(collection: string, name: string, columnsKey: string): Promise<unknown[]> {
  const listed = await table(`${collection}?fieldSelector=metadata.name%3D${name}`);
  expect(listed.kind).toBe('Table');
  expect(listed.columnDefinitions).toEqual(kubeOpenApiData().tableColumns[columnsKey]);
  expect(listed.rows).toHaveLength(1);
  return listed.rows[0]!.cells;
}

const AGE = /^\d+s$/;

function ago(milliseconds: number): string {
  return new Date(Date.now() - milliseconds).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

describe('Table responses of built-ins', () => {
  it('print ConfigMaps, Secrets, ServiceAccounts and Namespaces', async () => {
    const core = `/api/v1/namespaces/${namespace}`;
    await create(`${core}/configmaps`, {
      metadata: { name: 'settings' },
      data: { a: '1', b: '2' },
      binaryData: { c: 'AA==' },
    });
    await create(`${core}/secrets`, { metadata: { name: 'token' }, type: 'Opaque', data: { x: 'eA==' } });
    await create(`${core}/serviceaccounts`, { metadata: { name: 'robot' } });
    expect(await builtinRow(`${core}/configmaps`, 'settings', '/configmaps')).toEqual([
      'settings',
      3,
      expect.stringMatching(AGE),
    ]);
    expect(await builtinRow(`${core}/secrets`, 'token', '/secrets')).toEqual([
      'token',
      'Opaque',
      1,
      expect.stringMatching(AGE),
    ]);
    expect(await builtinRow(`${core}/serviceaccounts`, 'robot', '/serviceaccounts')).toEqual([
      'robot',
      0,
      expect.stringMatching(AGE),
    ]);
    expect(await builtinRow('/api/v1/namespaces', namespace, '/namespaces')).toEqual([
      namespace,
      'Active',
      expect.stringMatching(AGE),
    ]);
  });

  it('print a Service with its type, cluster IP, ports and selector', async () => {
    await create(`/api/v1/namespaces/${namespace}/services`, {
      metadata: { name: 'web' },
      spec: {
        selector: { app: 'web', tier: 'front' },
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ],
      },
    });
    expect(await builtinRow(`/api/v1/namespaces/${namespace}/services`, 'web', '/services')).toEqual([
      'web',
      'ClusterIP',
      expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
      '<none>',
      '80/TCP,53/UDP',
      expect.stringMatching(AGE),
      'app=web,tier=front',
    ]);
  });

  it('print Deployments and StatefulSets with READY, UP-TO-DATE, AVAILABLE, containers, images and selector', async () => {
    const apps = `/apis/apps/v1/namespaces/${namespace}`;
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'main', image: 'nginx:1' },
          { name: 'side', image: 'busybox:1' },
        ],
      },
    };
    await create(`${apps}/deployments`, {
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
    });
    await create(`${apps}/statefulsets`, {
      metadata: { name: 'db' },
      spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template },
    });
    expect(await builtinRow(`${apps}/deployments`, 'web', 'apps/deployments')).toEqual([
      'web',
      expect.stringMatching(/^[0-2]\/2$/),
      expect.any(Number),
      expect.any(Number),
      expect.stringMatching(AGE),
      'main,side',
      'nginx:1,busybox:1',
      'app=web',
    ]);
    expect(await builtinRow(`${apps}/statefulsets`, 'db', 'apps/statefulsets')).toEqual([
      'db',
      expect.stringMatching(/^[0-3]\/3$/),
      expect.stringMatching(AGE),
      'main,side',
      'nginx:1,busybox:1',
    ]);
  });

  it('print Leases, RBAC objects and CRDs (the default printer: Name, Created At)', async () => {
    await create(`/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`, {
      metadata: { name: 'leader' },
      spec: { holderIdentity: 'me' },
    });
    expect(
      await builtinRow(
        `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
        'leader',
        'coordination.k8s.io/leases',
      ),
    ).toEqual(['leader', 'me', expect.stringMatching(AGE)]);
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}`;
    const role = await create(`${rbac}/roles`, { metadata: { name: 'reader' }, rules: [] });
    expect(await builtinRow(`${rbac}/roles`, 'reader', 'rbac.authorization.k8s.io/roles')).toEqual([
      'reader',
      role.metadata.creationTimestamp,
    ]);
    await create(`${rbac}/rolebindings`, {
      metadata: { name: 'readers' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', name: 'ann', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'Group', name: 'ops', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'ServiceAccount', name: 'robot', namespace },
      ],
    });
    expect(
      await builtinRow(`${rbac}/rolebindings`, 'readers', 'rbac.authorization.k8s.io/rolebindings'),
    ).toEqual([
      'readers',
      'Role/reader',
      expect.stringMatching(AGE),
      'ann, bob',
      'ops',
      `${namespace}/robot`,
    ]);
  });

  it('print core and events.k8s.io Events (last seen, type, reason, object, source, message, count)', async () => {
    await create(`/api/v1/namespaces/${namespace}/events`, {
      metadata: { name: 'cm-event' },
      involvedObject: { kind: 'ConfigMap', name: 'settings', namespace, fieldPath: 'data' },
      reason: 'Checked',
      message: '  all good  ',
      type: 'Normal',
      source: { component: 'checker', host: 'node-1' },
      firstTimestamp: ago(5 * 3600_000 + 30_000),
      lastTimestamp: ago(3 * 3600_000 + 30_000),
      count: 3,
    });
    expect(await builtinRow(`/api/v1/namespaces/${namespace}/events`, 'cm-event', '/events')).toEqual([
      '3h',
      'Normal',
      'Checked',
      'configmap/settings',
      'data',
      'checker, node-1',
      'all good',
      '5h',
      3,
      'cm-event',
    ]);
    await create(`/apis/events.k8s.io/v1/namespaces/${namespace}/events`, {
      metadata: { name: 'new-event' },
      eventTime: new Date(Date.now() - 4 * 3600_000 - 30_000).toISOString().replace('Z', '000Z'),
      reportingController: 'example.com/checker',
      reportingInstance: 'checker-1',
      action: 'Check',
      reason: 'Checked',
      note: 'fine',
      type: 'Warning',
      regarding: { kind: 'Secret', name: 'token', namespace },
    });
    expect(
      await builtinRow(
        `/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
        'new-event',
        'events.k8s.io/events',
      ),
    ).toEqual([
      '4h',
      'Warning',
      'Checked',
      'secret/token',
      '',
      'example.com/checker, checker-1',
      'fine',
      '4h',
      1,
      'new-event',
    ]);
  });

  it('carry PartialObjectMetadata rows by default, the object or nothing on request, and a single object', async () => {
    const created = await create(`/api/v1/namespaces/${namespace}/configmaps`, {
      metadata: { name: 'rows' },
    });
    const path = `/api/v1/namespaces/${namespace}/configmaps?fieldSelector=metadata.name%3Drows`;
    const byDefault = await table(path);
    expect(byDefault.rows[0]?.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'rows', namespace },
    });
    expect((await table(`${path}&includeObject=Object`)).rows[0]?.object).toMatchObject({
      kind: 'ConfigMap',
    });
    expect((await table(`${path}&includeObject=None`)).rows[0]).toEqual({
      cells: ['rows', 0, expect.stringMatching(AGE)],
      object: null,
    });
    const single = await table(`/api/v1/namespaces/${namespace}/configmaps/rows`);
    expect(single.metadata).toEqual({
      resourceVersion: (created as { metadata: { resourceVersion?: string } }).metadata.resourceVersion,
    });
    expect(single.rows.map((row) => row.cells[0])).toEqual(['rows']);
    const beta = await table(path, 'application/json;as=Table;v=v1beta1;g=meta.k8s.io');
    expect(beta.apiVersion).toBe('meta.k8s.io/v1beta1');
  });
});

describe('Table watches', () => {
  it('stream Tables, the column definitions with the first event only (kubectl get -w)', async () => {
    await create(`/api/v1/namespaces/${namespace}/configmaps`, {
      metadata: { name: 'watched' },
      data: { a: '1' },
    });
    const path = `/api/v1/namespaces/${namespace}/configmaps?watch=true&fieldSelector=metadata.name%3Dwatched&timeoutSeconds=3`;
    const watching = rawRequest(target, 'GET', path, undefined, { Accept: TABLE });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const patched = await rawRequest(target, 'PATCH', `/api/v1/namespaces/${namespace}/configmaps/watched`, {
      contentType: 'application/merge-patch+json',
      text: JSON.stringify({ data: { b: '2' } }),
    });
    expect(patched.status).toBe(200);
    const body = (await watching).json as string;
    const events = body
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; object: Table });
    expect(
      events.map((event) => [event.type, event.object.kind, event.object.rows[0]?.cells.slice(0, 2)]),
    ).toEqual([
      ['ADDED', 'Table', ['watched', 1]],
      ['MODIFIED', 'Table', ['watched', 2]],
    ]);
    expect(events[0]!.object.columnDefinitions).toEqual(kubeOpenApiData().tableColumns['/configmaps']);
    expect(events[1]!.object.columnDefinitions).toBeNull();
  });
});

describe('metadata-only lists', () => {
  it('differs: as=PartialObjectMetadataList gets the plain list', async () => {
    const listed = await rawRequest(target, 'GET', `/api/v1/namespaces/${namespace}/configmaps`, undefined, {
      Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json',
    });
    expect(listed.status).toBe(200);
    expect((listed.json as { kind: string }).kind).toBe(
      target.server ? 'ConfigMapList' : 'PartialObjectMetadataList',
    );
  });
});

function crd(
  group: string,
  columns:
    NonNullable<V1CustomResourceDefinition['spec']['versions'][0]['additionalPrinterColumns']> | undefined,
): V1CustomResourceDefinition {
  return {
    metadata: { name: `gizmos.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'gizmos', kind: 'Gizmo' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(columns === undefined ? {} : { additionalPrinterColumns: columns }),
          schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
        },
      ],
    },
  };
}

describe('Table responses of custom resources', () => {
  it('print the additionalPrinterColumns, each cell found by its JSONPath and of its type', async () => {
    const group = `${uniqueName('table')}.example.com`;
    await installEstablished(
      target,
      crd(group, [
        { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
        { name: 'Size', type: 'integer', jsonPath: '.spec.size', description: 'How big.' },
        { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', priority: 1 },
        { name: 'On', type: 'boolean', jsonPath: '.spec.on' },
        { name: 'Tags', type: 'string', jsonPath: '.spec.tags' },
        { name: 'Missing', type: 'string', jsonPath: '.spec.nothing' },
        { name: 'Since', type: 'date', jsonPath: '.spec.since' },
      ]),
    );
    await create(`/apis/${group}/v1/namespaces/${namespace}/gizmos`, {
      apiVersion: `${group}/v1`,
      kind: 'Gizmo',
      metadata: { name: 'one' },
      spec: { size: 3, ratio: 0.5, on: true, tags: ['a', 'b'], since: ago(90 * 60_000 + 10_000) },
      status: {
        conditions: [
          { type: 'Synced', status: 'False' },
          { type: 'Ready', status: 'True' },
        ],
      },
    });
    const listed = await table(`/apis/${group}/v1/namespaces/${namespace}/gizmos`);
    expect(listed.columnDefinitions).toEqual([
      kubeOpenApiData().tableColumns['apps/deployments']![0],
      {
        name: 'Ready',
        type: 'string',
        format: '',
        description:
          'Custom resource definition column (in JSONPath format): .status.conditions[?(@.type=="Ready")].status',
        priority: 0,
      },
      { name: 'Size', type: 'integer', format: '', description: 'How big.', priority: 0 },
      {
        name: 'Ratio',
        type: 'number',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.ratio',
        priority: 1,
      },
      {
        name: 'On',
        type: 'boolean',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.on',
        priority: 0,
      },
      {
        name: 'Tags',
        type: 'string',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.tags',
        priority: 0,
      },
      {
        name: 'Missing',
        type: 'string',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.nothing',
        priority: 0,
      },
      {
        name: 'Since',
        type: 'date',
        format: '',
        description: 'Custom resource definition column (in JSONPath format): .spec.since',
        priority: 0,
      },
    ]);
    expect(listed.rows.map((row) => row.cells)).toEqual([
      ['one', 'True', 3, 0.5, true, '["a","b"]', null, '90m'],
    ]);
  });

  it('print Name and Age when a CRD names no columns', async () => {
    const group = `${uniqueName('table')}.example.com`;
    await installEstablished(target, crd(group, undefined));
    await create(`/apis/${group}/v1/namespaces/${namespace}/gizmos`, {
      apiVersion: `${group}/v1`,
      kind: 'Gizmo',
      metadata: { name: 'plain' },
    });
    const listed = await table(`/apis/${group}/v1/namespaces/${namespace}/gizmos`);
    const deploymentColumns = kubeOpenApiData().tableColumns['apps/deployments']!;
    expect(listed.columnDefinitions).toEqual([
      deploymentColumns[0],
      {
        name: 'Age',
        type: 'date',
        format: '',
        description: deploymentColumns.find((column) => column.name === 'Age')!.description,
        priority: 0,
      },
    ]);
    expect(listed.rows.map((row) => row.cells)).toEqual([['plain', expect.stringMatching(AGE)]]);
  });
});
