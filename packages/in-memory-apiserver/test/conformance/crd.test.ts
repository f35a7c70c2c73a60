import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  type KubernetesObject,
  PatchStrategy,
  setHeaderOptions,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  connect,
  CONTROLLER_PATIENCE_MS,
  eventually,
  failure,
  freshNamespace,
  installEstablished,
  rawRequest,
  uniqueName,
  whenNotFound,
  type Target,
} from './harness.ts';

let target: Target;
let extensions: ApiextensionsV1Api;
let custom: CustomObjectsApi;
let namespace: string;

function widgetCrd(
  group: string,
  scope: 'Namespaced' | 'Cluster' = 'Namespaced',
): V1CustomResourceDefinition {
  return {
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope,
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        shortNames: ['wd'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'integer', minimum: 1 },
                    color: { type: 'string', _enum: ['red', 'blue'], _default: 'red' },
                    extra: { type: 'object', x_kubernetes_preserve_unknown_fields: true },
                  },
                },
                status: { type: 'object', properties: { ready: { type: 'boolean' } } },
              },
            },
          },
        },
      ],
    },
  };
}

interface ResourceList {
  resources: { name: string }[];
}

/** kube-apiserver's storageVersionHash of `group/version/kind`: 8 bytes of its SHA-256, base64. */
function storageVersionHash(groupVersionKind: string): string {
  return createHash('sha256').update(groupVersionKind).digest().subarray(0, 8).toString('base64');
}

async function installCrd(
  scope: 'Namespaced' | 'Cluster' = 'Namespaced',
  groupPrefix = 'g',
  edit: (crd: V1CustomResourceDefinition) => void = () => {},
): Promise<string> {
  const group = `${uniqueName(groupPrefix)}.example.com`;
  const crd = widgetCrd(group, scope);
  edit(crd);
  await installEstablished(target, crd);
  return group;
}

beforeAll(async () => {
  target = await connect();
  extensions = target.kubeConfig.makeApiClient(ApiextensionsV1Api);
  custom = target.kubeConfig.makeApiClient(CustomObjectsApi);
  namespace = await freshNamespace(target);
});
afterAll(() => target.stop());

describe('CustomResourceDefinitions', () => {
  it('are established with accepted names', async () => {
    const group = await installCrd();
    const crd = await extensions.readCustomResourceDefinition({ name: `widgets.${group}` });
    expect(crd.status?.acceptedNames).toEqual({
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      shortNames: ['wd'],
    });
    expect(crd.status?.conditions?.map((condition) => [condition.type, condition.status])).toEqual(
      expect.arrayContaining([
        ['NamesAccepted', 'True'],
        ['Established', 'True'],
      ]),
    );
    expect(crd.status?.storedVersions).toEqual(['v1']);
  });

  it('are served in discovery, with the status subresource, until deleted', async () => {
    const group = await installCrd();
    const discovered = await rawRequest(target, 'GET', `/apis/${group}/v1`);
    expect(discovered.json).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: `${group}/v1`,
      resources: [
        {
          name: 'widgets',
          singularName: 'widget',
          namespaced: true,
          kind: 'Widget',
          // The order kube-apiserver lists custom resource verbs in.
          verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
          shortNames: ['wd'],
          storageVersionHash: storageVersionHash(`${group}/v1/Widget`),
        },
        {
          name: 'widgets/status',
          singularName: '',
          namespaced: true,
          kind: 'Widget',
          verbs: ['get', 'patch', 'update'],
        },
      ],
    });
    expect((await rawRequest(target, 'GET', `/apis/${group}`)).json).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: group,
      versions: [{ groupVersion: `${group}/v1`, version: 'v1' }],
      preferredVersion: { groupVersion: `${group}/v1`, version: 'v1' },
    });
    await extensions.deleteCustomResourceDefinition({ name: `widgets.${group}` });
    await eventually(
      async () => ((await rawRequest(target, 'GET', `/apis/${group}/v1`)).status === 404 ? true : undefined),
      CONTROLLER_PATIENCE_MS,
    );
  });

  it('are listed in /apis after the built-in groups, by APIService name (<version>.<group>)', async () => {
    const later = await installCrd('Namespaced', 'b');
    const earlier = await installCrd('Namespaced', 'a');
    const groups = (
      (await rawRequest(target, 'GET', '/apis')).json as { groups: { name: string }[] }
    ).groups.map((group) => group.name);
    expect(groups.indexOf('apps')).toBeLessThan(groups.indexOf(earlier));
    expect(groups.indexOf('coordination.k8s.io')).toBeLessThan(groups.indexOf(earlier));
    expect(groups.indexOf(earlier)).toBeLessThan(groups.indexOf(later));
  });

  it('differs: the status subresource is served at every version when one version declares it', async () => {
    const group = await installCrd('Namespaced', 'g', (crd) => {
      const [v1] = crd.spec.versions;
      if (v1 !== undefined)
        crd.spec.versions.push({ ...v1, name: 'v1beta1', storage: false, subresources: {} });
    });
    const names = (
      (await rawRequest(target, 'GET', `/apis/${group}/v1beta1`)).json as ResourceList
    ).resources.map((resource) => resource.name);
    // The in-memory server keeps one status flag per resource, not per version (no Scoby write depends on it).
    if (target.server) expect(names).toEqual(['widgets', 'widgets/status']);
    else expect(names).toEqual(['widgets']);
  });
});

describe('custom resources', () => {
  let group: string;
  beforeAll(async () => {
    group = await installCrd();
  });

  const widget = (name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    apiVersion: `${group}/v1`,
    kind: 'Widget',
    metadata: { name },
    spec,
    ...extra,
  });

  it('are created with generation 1, defaults applied and unknown fields pruned', async () => {
    const created = await custom.createNamespacedCustomObject({
      group,
      version: 'v1',
      namespace,
      plural: 'widgets',
      body: widget(
        'pruned',
        { size: 2, unknown: 'dropped', extra: { kept: { deep: true } } },
        { topLevelUnknown: 1 },
      ),
    });
    expect(created.spec).toEqual({ size: 2, color: 'red', extra: { kept: { deep: true } } });
    expect(created.topLevelUnknown).toBeUndefined();
    expect(created.metadata.generation).toBe(1);
  });

  it('answer 422 Invalid naming the field for value errors', async () => {
    const status = await failure(
      custom.createNamespacedCustomObject({
        group,
        version: 'v1',
        namespace,
        plural: 'widgets',
        body: widget('bad', { size: 0, color: 'green' }),
      }),
    );
    expect(status.code).toBe(422);
    expect(status.reason).toBe('Invalid');
    const size = {
      reason: 'FieldValueInvalid',
      message: 'Invalid value: 0: spec.size in body should be greater than or equal to 1',
      field: 'spec.size',
    };
    const color = {
      reason: 'FieldValueNotSupported',
      message: 'Unsupported value: "green": supported values: "red", "blue"',
      field: 'spec.color',
    };
    // kube-apiserver walks the schema's properties in Go map order: the two causes come in either order.
    const causes = (status.details as { causes: (typeof size)[] }).causes;
    expect(causes).toHaveLength(2);
    expect(causes).toEqual(expect.arrayContaining([size, color]));
    expect(status.details).toEqual({ name: 'bad', group, kind: 'Widget', causes });
    expect(status.message).toBe(
      `Widget.${group} "bad" is invalid: [${causes.map((cause) => `${cause.field}: ${cause.message}`).join(', ')}]`,
    );
  });

  it('answer 422 for a missing required field', async () => {
    const status = await failure(
      custom.createNamespacedCustomObject({
        group,
        version: 'v1',
        namespace,
        plural: 'widgets',
        body: widget('missing', {}),
      }),
    );
    expect(status.message).toBe(`Widget.${group} "missing" is invalid: spec.size: Required value`);
  });

  it('ignore .status on the main resource and change only .status through /status', async () => {
    await custom.createNamespacedCustomObject({
      group,
      version: 'v1',
      namespace,
      plural: 'widgets',
      body: widget('statused', { size: 1 }, { status: { ready: true } }),
    });
    const read = await custom.getNamespacedCustomObject({
      group,
      version: 'v1',
      namespace,
      plural: 'widgets',
      name: 'statused',
    });
    expect(read.status).toBeUndefined();
    const patched = await custom.patchNamespacedCustomObjectStatus(
      {
        group,
        version: 'v1',
        namespace,
        plural: 'widgets',
        name: 'statused',
        body: { spec: { size: 9 }, status: { ready: true } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(patched.status).toEqual({ ready: true });
    expect(patched.spec.size).toBe(1);
    expect(patched.metadata.generation).toBe(1);
    const mainPatched = await custom.patchNamespacedCustomObject(
      {
        group,
        version: 'v1',
        namespace,
        plural: 'widgets',
        name: 'statused',
        body: { spec: { size: 3 }, status: { ready: false } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(mainPatched.status).toEqual({ ready: true });
    expect(mainPatched.spec.size).toBe(3);
    expect(mainPatched.metadata.generation).toBe(2);
  });

  it('bump generation only for spec changes', async () => {
    await custom.createNamespacedCustomObject({
      group,
      version: 'v1',
      namespace,
      plural: 'widgets',
      body: widget('generations', { size: 1 }),
    });
    const labelled = await custom.patchNamespacedCustomObject(
      {
        group,
        version: 'v1',
        namespace,
        plural: 'widgets',
        name: 'generations',
        body: { metadata: { labels: { a: 'b' } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(labelled.metadata.generation).toBe(1);
    const resized = await custom.patchNamespacedCustomObject(
      {
        group,
        version: 'v1',
        namespace,
        plural: 'widgets',
        name: 'generations',
        body: [{ op: 'replace', path: '/spec/size', value: 5 }],
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    expect(resized.metadata.generation).toBe(2);
  });

  it('answer 415 to strategic merge patches', async () => {
    await custom.createNamespacedCustomObject({
      group,
      version: 'v1',
      namespace,
      plural: 'widgets',
      body: widget('no-smp', { size: 1 }),
    });
    const status = await failure(
      custom.patchNamespacedCustomObject(
        { group, version: 'v1', namespace, plural: 'widgets', name: 'no-smp', body: { spec: { size: 2 } } },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      ),
    );
    expect(status).toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
  });

  it('are served cluster-scoped when the CRD says so', async () => {
    const clusterGroup = await installCrd('Cluster');
    const created = await custom.createClusterCustomObject({
      group: clusterGroup,
      version: 'v1',
      plural: 'widgets',
      body: {
        apiVersion: `${clusterGroup}/v1`,
        kind: 'Widget',
        metadata: { name: 'global' },
        spec: { size: 1 },
      },
    });
    expect(created.metadata.namespace).toBeUndefined();
    const list = await custom.listClusterCustomObject({
      group: clusterGroup,
      version: 'v1',
      plural: 'widgets',
    });
    expect(list.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(['global']);
  });

  it('are reachable through KubernetesObjectApi (discovery by kind)', async () => {
    const objects = KubernetesObjectApi.makeApiClient(target.kubeConfig);
    const created = await objects.create({
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'generic', namespace },
      spec: { size: 4 },
    });
    expect((created as { spec?: unknown }).spec).toEqual({ size: 4, color: 'red' });
    const read = await objects.read({
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'generic', namespace },
    });
    expect(read.metadata?.uid).toBe((created as KubernetesObject).metadata?.uid);
  });

  it('go with their CRD', async () => {
    const doomed = await installCrd();
    await custom.createNamespacedCustomObject({
      group: doomed,
      version: 'v1',
      namespace,
      plural: 'widgets',
      body: { apiVersion: `${doomed}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } },
    });
    await extensions.deleteCustomResourceDefinition({ name: `widgets.${doomed}` });
    await eventually(
      () => whenNotFound(() => extensions.readCustomResourceDefinition({ name: `widgets.${doomed}` })),
      CONTROLLER_PATIENCE_MS,
    );
    // A CRD of the same name again: none of the old objects come back.
    await extensions.createCustomResourceDefinition({ body: widgetCrd(doomed) });
    const items = await eventually(async () => {
      try {
        return (
          await custom.listNamespacedCustomObject({
            group: doomed,
            version: 'v1',
            namespace,
            plural: 'widgets',
          })
        ).items;
      } catch {
        return undefined; // not served until established
      }
    }, CONTROLLER_PATIENCE_MS);
    expect(items).toEqual([]);
  });
});
