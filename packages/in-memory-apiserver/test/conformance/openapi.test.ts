/**
 * /openapi/v2 and /openapi/v3 as kube-apiserver publishes them, for the served built-ins (captured in
 * data/kube-openapi.json: against the real server these tests check the capture is current) and for
 * CRDs (rendered from their schema), so kubectl's apply, explain and server-side validation work with
 * their default flags.
 */
import { ApiextensionsV1Api, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TYPES } from '../../src/builtin-types.ts';
import { builtinSchema, builtinSchemaName } from '../../src/openapi/builtin-schemas.ts';
import {
  connect,
  CONTROLLER_PATIENCE_MS,
  eventually,
  installEstablished,
  rawRequest,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;

beforeAll(async () => {
  target = await connect();
});
afterAll(() => target.stop());

interface V3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

interface V3Document {
  paths: Record<string, Record<string, { operationId?: string; parameters?: { name: string }[] }>>;
  components: { schemas: Record<string, unknown> };
}

async function v3Index(): Promise<V3Index> {
  const index = await rawRequest(target, 'GET', '/openapi/v3');
  expect(index.status).toBe(200);
  return index.json as V3Index;
}

async function v3Document(path: string): Promise<V3Document | undefined> {
  const entry = (await v3Index()).paths[path];
  if (entry === undefined) return undefined;
  const document = await rawRequest(target, 'GET', entry.serverRelativeURL);
  expect(document.status).toBe(200);
  return document.json as V3Document;
}

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

const TYPE_META = {
  apiVersion: {
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    type: 'string',
  },
  kind: {
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    type: 'string',
  },
};
const METADATA_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

describe('OpenAPI of the built-in kinds', () => {
  it('lists every served group-version in /openapi/v3, each document holding the kinds as captured', async () => {
    const index = await v3Index();
    for (const type of BUILTIN_TYPES) {
      for (const version of type.versions) {
        const path = gvPath(type.group, version);
        expect(index.paths[path]?.serverRelativeURL).toMatch(
          new RegExp(`^/openapi/v3/${path}\\?hash=[0-9A-F]{128}$`),
        );
      }
    }
    for (const path of new Set(BUILTIN_TYPES.map((type) => gvPath(type.group, type.versions[0]!)))) {
      const document = await v3Document(path);
      for (const type of BUILTIN_TYPES.filter(
        (candidate) => gvPath(candidate.group, candidate.versions[0]!) === path,
      )) {
        const gvk = { group: type.group, version: type.versions[0]!, kind: type.kind };
        expect(document?.components.schemas[builtinSchemaName(gvk)!], `${path} ${type.kind}`).toEqual(
          builtinSchema(gvk),
        );
      }
    }
  });

  it('names fieldValidation among the PATCH parameters, which kubectl looks for before it validates on the server', async () => {
    const document = await v3Document('apis/apps/v1');
    const patch = document?.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch;
    expect(patch?.operationId).toBe('patchAppsV1NamespacedDeployment');
    expect(patch?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['dryRun', 'fieldManager', 'fieldValidation', 'force']),
    );
  });

  it('serves /openapi/v2 as JSON with the built-in definitions', async () => {
    const document = await rawRequest(target, 'GET', '/openapi/v2', undefined, {
      Accept: 'application/json',
    });
    expect(document.status).toBe(200);
    const swagger = document.json as {
      swagger: string;
      definitions: Record<string, { properties?: object }>;
    };
    expect(swagger.swagger).toBe('2.0');
    expect(Object.keys(swagger.definitions['io.k8s.api.apps.v1.Deployment']?.properties ?? {})).toEqual([
      'apiVersion',
      'kind',
      'metadata',
      'spec',
      'status',
    ]);
  });

  it('redirects a group-version document asked for by an outdated hash to the current one', async () => {
    const current = (await v3Index()).paths['apis/apps/v1']!.serverRelativeURL;
    const cluster = target.kubeConfig.getCurrentCluster()!;
    const init = await target.kubeConfig.applyToFetchOptions({});
    const { default: fetch } = await import('node-fetch');
    const outdated = await fetch(`${cluster.server}/openapi/v3/apis/apps/v1?hash=${'0'.repeat(128)}`, {
      ...init,
      redirect: 'manual',
    });
    expect(outdated.status).toBe(301);
    expect(
      new URL(outdated.headers.get('location') ?? '', cluster.server).pathname +
        '?' +
        new URL(outdated.headers.get('location') ?? '', cluster.server).searchParams.toString(),
    ).toBe(current);
    const fresh = await fetch(`${cluster.server}${current}`, init);
    expect(fresh.headers.get('cache-control')).toBe('public, immutable');
    expect(fresh.headers.get('etag')).toBe(`"${current.split('hash=')[1]}"`);
  });

  it('differs: /openapi/v2 is not written as protobuf (406 to a client that takes nothing else)', async () => {
    const reply = await rawRequest(target, 'GET', '/openapi/v2', undefined, {
      Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    });
    expect(reply.status).toBe(target.server ? 406 : 200);
  });
});

function gadgetCrd(group: string): V1CustomResourceDefinition {
  return {
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
          },
          selectableFields: [{ jsonPath: '.spec.color' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'A gadget.',
              properties: {
                spec: {
                  type: 'object',
                  required: ['color'],
                  x_kubernetes_validations: [{ rule: 'self.replicas <= 10', message: 'at most 10' }],
                  properties: {
                    color: { type: 'string', _enum: ['red', 'blue'], _default: 'red' },
                    replicas: { type: 'integer', minimum: 0 },
                    note: { type: 'string', nullable: true },
                    port: { x_kubernetes_int_or_string: true },
                    extra: { type: 'object', x_kubernetes_preserve_unknown_fields: true },
                    template: {
                      type: 'object',
                      x_kubernetes_embedded_resource: true,
                      x_kubernetes_preserve_unknown_fields: true,
                    },
                    items: {
                      type: 'array',
                      x_kubernetes_list_type: 'map',
                      x_kubernetes_list_map_keys: ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: { name: { type: 'string' } },
                      },
                    },
                  },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
        },
      ],
    },
  };
}

describe('OpenAPI of custom resources', () => {
  it('publishes a CRD version in /openapi/v3 as kube-apiserver builds it from the schema', async () => {
    const group = `${uniqueName('openapi')}.example.com`;
    await installEstablished(target, gadgetCrd(group));
    const reversed = group.split('.').reverse().join('.');
    const document = await eventually(() => v3Document(`apis/${group}/v1`), CONTROLLER_PATIENCE_MS);
    expect(Object.keys(document.paths).sort()).toEqual([
      `/apis/${group}/v1/gadgets`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets/{name}`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets/{name}/scale`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets/{name}/status`,
    ]);
    const item = document.paths[`/apis/${group}/v1/namespaces/{namespace}/gadgets/{name}`]!;
    const operationGroup = group
      .split(/[^A-Za-z0-9]+/)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('');
    expect(item.patch?.operationId).toBe(`patch${operationGroup}V1NamespacedGadget`);
    expect(item.patch?.parameters?.map((parameter) => parameter.name)).toContain('fieldValidation');
    expect(document.components.schemas[`${reversed}.v1.Gadget`]).toEqual({
      description: 'A gadget.',
      type: 'object',
      properties: {
        ...TYPE_META,
        metadata: {
          description: METADATA_DESCRIPTION,
          allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
        },
        spec: {
          type: 'object',
          required: ['color'],
          properties: {
            color: { type: 'string', default: 'red', enum: ['red', 'blue'] },
            extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            items: {
              type: 'array',
              items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
              'x-kubernetes-list-map-keys': ['name'],
              'x-kubernetes-list-type': 'map',
            },
            note: { type: 'string', nullable: true },
            port: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
            replicas: { type: 'integer', minimum: 0 },
            template: {
              type: 'object',
              required: ['kind', 'apiVersion'],
              properties: {
                apiVersion: {
                  ...TYPE_META.apiVersion,
                  description: expect.stringMatching(/^apiVersion defines/),
                },
                kind: { ...TYPE_META.kind, description: expect.stringMatching(/^kind is a string value/) },
                metadata: {
                  description: METADATA_DESCRIPTION,
                  allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
                },
              },
              'x-kubernetes-embedded-resource': true,
              'x-kubernetes-preserve-unknown-fields': true,
            },
          },
          'x-kubernetes-validations': [{ message: 'at most 10', rule: 'self.replicas <= 10' }],
        },
        status: { type: 'object', properties: { replicas: { type: 'integer' } } },
      },
      'x-kubernetes-group-version-kind': [{ group, kind: 'Gadget', version: 'v1' }],
      'x-kubernetes-selectable-fields': [{ fieldPath: 'spec.color' }],
    });
    expect(document.components.schemas[`${reversed}.v1.GadgetList`]).toMatchObject({
      description: 'GadgetList is a list of Gadget',
      required: ['items'],
    });
    expect(document.components.schemas['io.k8s.api.autoscaling.v1.Scale']).toBeDefined();
    const beta = await eventually(() => v3Document(`apis/${group}/v1beta1`), CONTROLLER_PATIENCE_MS);
    expect(Object.keys(beta.paths)).toHaveLength(3);
    expect(beta.components.schemas['io.k8s.api.autoscaling.v1.Scale']).toBeUndefined();
    expect(beta.components.schemas[`${reversed}.v1beta1.Gadget`]).toEqual({
      type: 'object',
      properties: {
        ...TYPE_META,
        metadata: {
          description: METADATA_DESCRIPTION,
          allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
        },
      },
      'x-kubernetes-group-version-kind': [{ group, kind: 'Gadget', version: 'v1beta1' }],
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('merges a CRD into /openapi/v2 in the form OpenAPI v2 can say (no nullable, anyOf or defaults)', async () => {
    const group = `${uniqueName('openapi')}.example.com`;
    await installEstablished(target, gadgetCrd(group));
    const reversed = group.split('.').reverse().join('.');
    const definitions = await eventually(async () => {
      const swagger = (
        await rawRequest(target, 'GET', '/openapi/v2', undefined, { Accept: 'application/json' })
      ).json as { definitions: Record<string, unknown>; paths: Record<string, unknown> };
      return swagger.definitions[`${reversed}.v1.Gadget`] === undefined ? undefined : swagger;
    }, CONTROLLER_PATIENCE_MS);
    expect(definitions.definitions[`${reversed}.v1beta1.Gadget`]).toEqual({
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group, kind: 'Gadget', version: 'v1beta1' }],
    });
    expect(definitions.definitions[`${reversed}.v1.Gadget`]).toMatchObject({
      properties: {
        metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
        spec: {
          properties: {
            color: { type: 'string', enum: ['red', 'blue'] },
            extra: { 'x-kubernetes-preserve-unknown-fields': true },
            note: {},
            port: { 'x-kubernetes-int-or-string': true },
          },
        },
      },
    });
    const spec = (
      definitions.definitions[`${reversed}.v1.Gadget`] as {
        properties: { spec: { properties: Record<string, object> } };
      }
    ).properties.spec.properties;
    expect(spec.color).not.toHaveProperty('default');
    expect(spec.note).toEqual({});
    expect(spec.port).toEqual({ 'x-kubernetes-int-or-string': true });
    expect(
      Object.keys(definitions.paths)
        .filter((path) => path.startsWith(`/apis/${group}/`))
        .sort(),
    ).toEqual([
      `/apis/${group}/v1/gadgets`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets/{name}`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets/{name}/scale`,
      `/apis/${group}/v1/namespaces/{namespace}/gadgets/{name}/status`,
      `/apis/${group}/v1beta1/gadgets`,
      `/apis/${group}/v1beta1/namespaces/{namespace}/gadgets`,
      `/apis/${group}/v1beta1/namespaces/{namespace}/gadgets/{name}`,
    ]);
  });

  it('follows the CRD: a new field is published, a deleted CRD is gone', async () => {
    const group = `${uniqueName('openapi')}.example.com`;
    const crd = gadgetCrd(group);
    await installEstablished(target, crd);
    const reversed = group.split('.').reverse().join('.');
    await eventually(() => v3Document(`apis/${group}/v1`), CONTROLLER_PATIENCE_MS);
    const extensions = target.kubeConfig.makeApiClient(ApiextensionsV1Api);
    const current = await extensions.readCustomResourceDefinition({ name: `gadgets.${group}` });
    const spec = current.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.spec!;
    spec.properties = { ...spec.properties, size: { type: 'string', description: 'Added later.' } };
    await extensions.replaceCustomResourceDefinition({ name: `gadgets.${group}`, body: current });
    await eventually(async () => {
      const document = await v3Document(`apis/${group}/v1`);
      const gadget = document?.components.schemas[`${reversed}.v1.Gadget`] as
        { properties: { spec: { properties: Record<string, unknown> } } } | undefined;
      return gadget?.properties.spec.properties.size !== undefined ? true : undefined;
    }, CONTROLLER_PATIENCE_MS);
    await extensions.deleteCustomResourceDefinition({ name: `gadgets.${group}` });
    await eventually(
      async () => ((await v3Index()).paths[`apis/${group}/v1`] === undefined ? true : undefined),
      CONTROLLER_PATIENCE_MS,
    );
  });
});
