/**
 * What a request body must say about itself: apiVersion and kind (custom resources need both, an applied
 * configuration always), a resourceVersion for updates of types without unconditional update, and the
 * options an apply needs.
 */
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const group = `${uniqueName('bodies')}.example.com`;
const widgets = () => `/apis/${group}/v1/namespaces/${namespace}/widgets`;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'bodies');
  await installEstablished(target, {
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
        },
      ],
    },
  });
});
afterAll(() => target.stop());

function send(method: string, path: string, body: unknown, contentType = 'application/json') {
  return rawRequest(target, method, path, { contentType, text: JSON.stringify(body) });
}

function badRequest(message: string) {
  return {
    status: 400,
    json: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'BadRequest',
      code: 400,
    },
  };
}

function invalid(message: string, details: Record<string, unknown>) {
  return {
    status: 422,
    json: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'Invalid',
      details,
      code: 422,
    },
  };
}

describe('apiVersion and kind of a custom resource', () => {
  it('answers 400 for a body without kind, quoting the body', async () => {
    expect(await send('POST', widgets(), { metadata: { name: 'n1' } })).toEqual(
      badRequest(
        `the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '{"metadata":{"name":"n1"}}' ({"metadata":{"name":"n1"}})`,
      ),
    );
    // The quote in parentheses is cut to 30 characters.
    expect(await send('POST', widgets(), { apiVersion: `${group}/v1`, metadata: { name: 'n2' } })).toEqual(
      badRequest(
        `the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '{"apiVersion":"${group}/v1","metadata":{"name":"n2"}}' (${`{"apiVersion":"${group}/v1"`.slice(0, 30)} ...)`,
      ),
    );
  });

  it('answers 400 for a body without apiVersion or with another', async () => {
    expect(await send('POST', widgets(), { kind: 'Widget', metadata: { name: 'n3' } })).toEqual(
      badRequest(`the API version in the data () does not match the expected API version (${group}/v1)`),
    );
    expect(
      await send('POST', widgets(), {
        apiVersion: 'other.example.com/v1',
        kind: 'Widget',
        metadata: { name: 'n4' },
      }),
    ).toEqual(
      badRequest(
        `the API version in the data (other.example.com/v1) does not match the expected API version (${group}/v1)`,
      ),
    );
  });

  it('answers 422 for a body of another kind', async () => {
    expect(
      await send('POST', widgets(), { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'n5' } }),
    ).toEqual(
      invalid(`Gadget.${group} "n5" is invalid: kind: Invalid value: "Gadget": must be Widget`, {
        name: 'n5',
        group,
        kind: 'Gadget',
        causes: [
          { reason: 'FieldValueInvalid', message: 'Invalid value: "Gadget": must be Widget', field: 'kind' },
        ],
      }),
    );
  });

  it('takes a PUT only with both, like a POST', async () => {
    const created = await send('POST', widgets(), {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'put' },
    });
    expect(created.status).toBe(201);
    const { resourceVersion } = (created.json as { metadata: { resourceVersion: string } }).metadata;
    expect(await send('PUT', `${widgets()}/put`, { metadata: { name: 'put', resourceVersion } })).toEqual(
      badRequest(
        `the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '{"metadata":{"name":"put","resourceVersion":"${resourceVersion}"}}' ({"metadata":{"name":"put","res ...)`,
      ),
    );
  });
});

describe('resourceVersion of an update', () => {
  it('is required for custom resources, their status, Leases and CRDs (422), not for ConfigMaps', async () => {
    const created = await send('POST', widgets(), {
      apiVersion: `${group}/v1`,
      kind: 'Widget',
      metadata: { name: 'rv' },
    });
    expect(created.status).toBe(201);
    const required = (resource: string, qualified: string, name: string, resourceGroup: string) =>
      invalid(
        `${qualified} "${name}" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`,
        {
          name,
          ...(resourceGroup === '' ? {} : { group: resourceGroup }),
          kind: resource,
          causes: [
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: 0: must be specified for an update',
              field: 'metadata.resourceVersion',
            },
          ],
        },
      );
    const widget = { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'rv' }, spec: { a: 1 } };
    expect(await send('PUT', `${widgets()}/rv`, widget)).toEqual(
      required('widgets', `widgets.${group}`, 'rv', group),
    );
    expect(await send('PUT', `${widgets()}/rv/status`, { ...widget, status: { s: 1 } })).toEqual(
      required('widgets', `widgets.${group}`, 'rv', group),
    );

    const leases = target.kubeConfig.makeApiClient(CoordinationV1Api);
    const lease = uniqueName('lease');
    await leases.createNamespacedLease({
      namespace,
      body: { metadata: { name: lease }, spec: { holderIdentity: 'a' } },
    });
    expect(
      await send('PUT', `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${lease}`, {
        metadata: { name: lease },
        spec: { holderIdentity: 'b' },
      }),
    ).toEqual(required('leases', 'leases.coordination.k8s.io', lease, 'coordination.k8s.io'));

    const crd = `widgets.${group}`;
    const current = (
      await rawRequest(target, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd}`)
    ).json as { metadata: Record<string, unknown> };
    const { resourceVersion: _dropped, ...metadata } = current.metadata;
    expect(
      await send('PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd}`, {
        ...current,
        metadata,
      }),
    ).toEqual(
      required(
        'customresourcedefinitions',
        'customresourcedefinitions.apiextensions.k8s.io',
        crd,
        'apiextensions.k8s.io',
      ),
    );

    const core = target.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'unconditional' } } });
    const replaced = await send('PUT', `/api/v1/namespaces/${namespace}/configmaps/unconditional`, {
      metadata: { name: 'unconditional' },
      data: { a: '1' },
    });
    expect(replaced).toMatchObject({ status: 200, json: { data: { a: '1' } } });
  });
});

describe('server-side apply', () => {
  const applyTo = (name: string, query: string, body: unknown) =>
    send(
      'PATCH',
      `/api/v1/namespaces/${namespace}/configmaps/${name}${query}`,
      body,
      'application/apply-patch+yaml',
    );

  it('answers 422 without a fieldManager (PatchOptions are invalid)', async () => {
    expect(
      await applyTo('no-manager', '', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'no-manager' },
      }),
    ).toEqual(
      invalid(
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
        {
          group: 'meta.k8s.io',
          kind: 'PatchOptions',
          causes: [
            {
              reason: 'FieldValueRequired',
              message: 'Required value: is required for apply patch',
              field: 'fieldManager',
            },
          ],
        },
      ),
    );
  });

  it.each([
    ['without apiVersion and kind', {}, 'invalid object type: /, Kind='],
    ['of another kind', { apiVersion: 'v1', kind: 'Secret' }, 'invalid object type: /v1, Kind=Secret'],
    [
      'of another group',
      { apiVersion: 'apps/v1', kind: 'ConfigMap' },
      'invalid object type: apps/v1, Kind=ConfigMap',
    ],
  ])('answers 400 for a configuration %s, before it compares names', async (_, identity, message) => {
    const name = uniqueName('typed');
    expect(
      await applyTo(name, '?fieldManager=conformance', { ...identity, metadata: { name: 'other' } }),
    ).toEqual(badRequest(message));
    const absent = await rawRequest(target, 'GET', `/api/v1/namespaces/${namespace}/configmaps/${name}`);
    expect(absent.status).toBe(404);
  });
});
