/**
 * What the differential harness found once it sent Services, Events, Leases and custom resources: each
 * answer the in-memory server once gave otherwise than kube-apiserver, asserted with kube-apiserver's
 * answer on both servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDifferentialCrds } from '../differential/crds.ts';
import { connect, freshNamespace, rawRequest, type Target } from './harness.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'findings');
  await installDifferentialCrds(target);
});
afterAll(() => target.stop());

function send(method: string, path: string, object?: unknown, contentType = 'application/json') {
  return rawRequest(
    target,
    method,
    path,
    object === undefined ? undefined : { contentType, text: JSON.stringify(object) },
  );
}

const core = (resource: string) => `/api/v1/namespaces/${namespace}/${resource}`;
const leases = () => `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;
const widgets = () => `/apis/differential.example.com/v1/namespaces/${namespace}/widgets`;

function event(name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace },
    reason: 'Created',
    message: 'made',
    type: 'Normal',
    ...extra,
  };
}

function service(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }], ...spec },
  };
}

function messageOf(reply: { json: unknown }): string {
  return (reply.json as { message?: string }).message ?? '';
}

describe('a PUT of a missing object', () => {
  it('creates Events, Leases and Services (201), as their strategies allow, and not ConfigMaps (404)', async () => {
    const created = await Promise.all([
      send('PUT', `${core('events')}/put-event`, event('put-event')),
      send('PUT', `${leases()}/put-lease`, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'put-lease', resourceVersion: '1' },
        spec: { holderIdentity: 'me' },
      }),
      send('PUT', `${core('services')}/put-service`, service('put-service')),
      send('PUT', `${core('configmaps')}/put-configmap`, { metadata: { name: 'put-configmap' } }),
    ]);
    expect(created.map((reply) => reply.status)).toEqual([201, 201, 201, 404]);
    const lease = created[1]?.json as { metadata: { resourceVersion: string }; spec: unknown };
    expect(lease.spec).toEqual({ holderIdentity: 'me' });
    expect(lease.metadata.resourceVersion).not.toBe('1');
    const read = await send('GET', `${core('services')}/put-service`);
    expect((read.json as { spec: { clusterIP?: string } }).spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('answers a dry run with the body’s resourceVersion, and a uid precondition with 409', async () => {
    const dry = await send(
      'PUT',
      `${core('events')}/dry-event?dryRun=All`,
      event('dry-event', { metadata: { name: 'dry-event', resourceVersion: '1' } }),
    );
    expect(dry.status).toBe(201);
    expect((dry.json as { metadata: { resourceVersion?: string } }).metadata.resourceVersion).toBe('1');
    expect((await send('GET', `${core('events')}/dry-event`)).status).toBe(404);
    const uid = '00000000-0000-0000-0000-000000000001';
    const held = await send(
      'PUT',
      `${core('events')}/uid-event`,
      event('uid-event', { metadata: { name: 'uid-event', uid } }),
    );
    expect(held.status).toBe(409);
    expect(messageOf(held)).toBe(
      `Operation cannot be fulfilled on events "uid-event": StorageError: invalid object, Code: 4, Key: /registry/events/${namespace}/uid-event, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: `,
    );
  });

  it('keeps the deletionTimestamp of the body (the storage writes what the update made)', async () => {
    const reply = await send('PUT', `${core('services')}/doomed`, {
      ...service('doomed'),
      metadata: { name: 'doomed', deletionTimestamp: '2020-01-01T00:00:00Z' },
    });
    expect(reply.status).toBe(201);
    expect((reply.json as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBe(
      '2020-01-01T00:00:00Z',
    );
  });

  it('that carried a deletionTimestamp and no finalizers is deleted by its next update, even one that changes nothing', async () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'short-lived', deletionTimestamp: '2020-01-01T00:00:00Z' },
      spec: { holderIdentity: 'me' },
    };
    expect((await send('PUT', `${leases()}/short-lived`, lease)).status).toBe(201);
    const current = await send('GET', `${leases()}/short-lived`);
    const { resourceVersion } = (current.json as { metadata: { resourceVersion: string } }).metadata;
    const again = await send('PUT', `${leases()}/short-lived`, {
      ...lease,
      metadata: { name: 'short-lived', resourceVersion },
    });
    expect(again.status).toBe(200);
    expect((await send('GET', `${leases()}/short-lived`)).status).toBe(404);
  });

  it('that carried a deletionTimestamp and no finalizers is deleted at once by a DELETE', async () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'doomed-lease', deletionTimestamp: '2020-01-01T00:00:00Z' },
      spec: { holderIdentity: 'me' },
    };
    expect((await send('PUT', `${leases()}/doomed-lease`, lease)).status).toBe(201);
    const reply = await send('DELETE', `${leases()}/doomed-lease`);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await send('GET', `${leases()}/doomed-lease`)).status).toBe(404);
  });

  it('of a custom resource is a 404 before its kind is checked', async () => {
    const reply = await send('PUT', `${widgets()}/absent`, {
      apiVersion: 'differential.example.com/v1',
      kind: 'Secret',
      metadata: { name: 'absent' },
    });
    expect(reply.status).toBe(404);
  });
});

describe('Events', () => {
  it('read back with eventTime null when written without one', async () => {
    const reply = await send('POST', core('events'), event('timeless'));
    expect(reply.status).toBe(201);
    expect(reply.json).toHaveProperty('eventTime', null);
  });

  it('name an involved object in their own namespace (core v1 validation)', async () => {
    const reply = await send(
      'POST',
      core('events'),
      event('elsewhere', {
        involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace: 'elsewhere' },
      }),
    );
    expect(reply.status).toBe(422);
    expect(messageOf(reply)).toBe(
      'Event "elsewhere" is invalid: involvedObject.namespace: Invalid value: "elsewhere": does not match event.namespace',
    );
    const bogusType = await send('POST', core('events'), event('bogus-type', { type: 'Bogus' }));
    expect(bogusType.status).toBe(201);
  });

  it('are not collected when their owner is missing (the garbage collector ignores Events)', async () => {
    const owned = event('owned', {
      metadata: {
        name: 'owned',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: '00000000-0000-0000-0000-00000000dead' },
        ],
      },
    });
    expect((await send('POST', core('events'), owned)).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await send('GET', `${core('events')}/owned`)).status).toBe(200);
  });

  it('are deleted at once whatever the propagation policy (their collection policy is unsupported)', async () => {
    expect((await send('POST', core('events'), event('foreground'))).status).toBe(201);
    const reply = await send('DELETE', `${core('events')}/foreground`, {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      propagationPolicy: 'Foreground',
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await send('GET', `${core('events')}/foreground`)).status).toBe(404);
  });
});

describe('Leases', () => {
  it('need a positive duration and no negative transitions', async () => {
    const reply = await send('POST', leases(), {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'bad-lease' },
      spec: { leaseDurationSeconds: 0, leaseTransitions: -1 },
    });
    expect(reply.status).toBe(422);
    expect(messageOf(reply)).toBe(
      'Lease.coordination.k8s.io "bad-lease" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    );
  });

  it('refuse an applied renewTime without microseconds with the converter’s bare time error', async () => {
    const reply = await send(
      'PATCH',
      `${leases()}/applied?fieldManager=alice`,
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'applied' },
        spec: { renewTime: '2026-01-01T00:00:00Z' },
      },
      'application/apply-patch+yaml',
    );
    expect(reply.status).toBe(500);
    expect(messageOf(reply)).toBe(
      'failed to convert new object (/applied; coordination.k8s.io/v1, Kind=Lease) to proper version: unable to convert unstructured object to coordination.k8s.io/v1, Kind=Lease: parsing time "2026-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });
});

describe('Services', () => {
  it('validate protocols, types, port names and named target ports', async () => {
    const reply = await send(
      'POST',
      core('services'),
      service('checked', {
        type: 'Bogus',
        ports: [
          { name: 'HTTP_port', port: 80, protocol: 'ICMP' },
          { name: 'metrics', port: 81, targetPort: 'not--valid' },
        ],
      }),
    );
    expect(reply.status).toBe(422);
    const causes = (reply.json as { details: { causes: unknown[] } }).details.causes;
    expect(causes).toEqual(
      expect.arrayContaining([
        {
          reason: 'FieldValueNotSupported',
          message:
            'Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
          field: 'spec.type',
        },
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
          field: 'spec.ports[0].protocol',
        },
        {
          reason: 'FieldValueInvalid',
          message:
            "Invalid value: \"HTTP_port\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
          field: 'spec.ports[0].name',
        },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "not--valid": must not contain consecutive hyphens',
          field: 'spec.ports[1].targetPort',
        },
      ]),
    );
  });

  it('of type ExternalName need an externalName', async () => {
    const reply = await send('POST', core('services'), service('external', { type: 'ExternalName' }));
    expect(reply.status).toBe(422);
    expect(messageOf(reply)).toBe('Service "external" is invalid: spec.externalName: Required value');
  });

  it('report load balancer ingress in their status only when of type LoadBalancer', async () => {
    expect((await send('POST', core('services'), service('balanced'))).status).toBe(201);
    const reply = await send(
      'PATCH',
      `${core('services')}/balanced/status`,
      { status: { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } } },
      'application/merge-patch+json',
    );
    expect(reply.status).toBe(422);
    expect(messageOf(reply)).toBe(
      'Service "balanced" is invalid: status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is \'LoadBalancer\'',
    );
  });

  it('get node ports and an external traffic policy when they become NodePort, lose their IPs as ExternalName and get one back as ClusterIP', async () => {
    expect((await send('POST', core('services'), service('retyped'))).status).toBe(201);
    const nodePort = await send(
      'PATCH',
      `${core('services')}/retyped`,
      { spec: { type: 'NodePort' } },
      'application/merge-patch+json',
    );
    expect(nodePort.status).toBe(200);
    const spec = (
      nodePort.json as { spec: { externalTrafficPolicy?: string; ports: { nodePort?: number }[] } }
    ).spec;
    expect(spec.externalTrafficPolicy).toBe('Cluster');
    expect(spec.ports[0]?.nodePort).toBeGreaterThanOrEqual(30000);
    const external = await send(
      'PATCH',
      `${core('services')}/retyped`,
      { spec: { type: 'ExternalName', externalName: 'backend.example.com' } },
      'application/merge-patch+json',
    );
    expect(external.status).toBe(200);
    const after = (external.json as { spec: Record<string, unknown> }).spec;
    expect([
      after.clusterIP,
      after.clusterIPs,
      after.ipFamilies,
      after.externalTrafficPolicy,
      after.internalTrafficPolicy,
    ]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect((after.ports as { nodePort?: number }[])[0]?.nodePort).toBeUndefined();
    const back = await send(
      'PATCH',
      `${core('services')}/retyped`,
      { spec: { type: 'ClusterIP', externalName: null } },
      'application/merge-patch+json',
    );
    expect(back.status).toBe(200);
    expect((back.json as { spec: { clusterIP?: string } }).spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('keep their cluster IP through a PUT that leaves it out, before validation (a headless one cannot become NodePort)', async () => {
    const created = await send('POST', core('services'), service('headless', { clusterIP: 'None' }));
    expect(created.status).toBe(201);
    const { resourceVersion } = (created.json as { metadata: { resourceVersion: string } }).metadata;
    const reply = await send('PUT', `${core('services')}/headless`, {
      ...service('headless', { type: 'NodePort' }),
      metadata: { name: 'headless', resourceVersion },
    });
    expect(reply.status).toBe(422);
    expect(messageOf(reply)).toBe(
      'Service "headless" is invalid: spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for NodePort services',
    );
  });

  it('keep their cluster IPs and IP families through a PUT that names the same cluster IP without them', async () => {
    const created = await send('POST', core('services'), service('same-ip', { clusterIP: 'None' }));
    expect(created.status).toBe(201);
    const { resourceVersion } = (created.json as { metadata: { resourceVersion: string } }).metadata;
    const reply = await send('PUT', `${core('services')}/same-ip`, {
      ...service('same-ip', { clusterIP: 'None' }),
      metadata: { name: 'same-ip', resourceVersion },
    });
    expect(reply.status).toBe(200);
    const spec = (reply.json as { spec: Record<string, unknown> }).spec;
    expect([spec.clusterIP, spec.clusterIPs, spec.ipFamilies, spec.ipFamilyPolicy]).toEqual([
      'None',
      ['None'],
      ['IPv4'],
      'SingleStack',
    ]);
  });

  it('report a changed deletionTimestamp with the other causes of the update in one 422', async () => {
    const created = await send('POST', core('services'), service('both-wrong'));
    const { resourceVersion } = (created.json as { metadata: { resourceVersion: string } }).metadata;
    const reply = await send('PUT', `${core('services')}/both-wrong`, {
      ...service('both-wrong', { clusterIP: 'None' }),
      metadata: { name: 'both-wrong', resourceVersion, deletionTimestamp: '2020-01-01T00:00:00Z' },
    });
    expect(reply.status).toBe(422);
    const fields = (reply.json as { details: { causes: { field: string }[] } }).details.causes.map(
      (cause) => cause.field,
    );
    expect([...new Set(fields)].sort()).toEqual(['metadata.deletionTimestamp', 'spec.clusterIPs[0]']);
  });

  it('answer a DELETE with the deleted Service, not a Status', async () => {
    expect((await send('POST', core('services'), service('deleted'))).status).toBe(201);
    const reply = await send('DELETE', `${core('services')}/deleted`);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ kind: 'Service', metadata: { name: 'deleted' } });
  });

  it('refuse an apply whose ports repeat a key with structured-merge-diff’s 500', async () => {
    const reply = await send(
      'PATCH',
      `${core('services')}/twice?fieldManager=alice`,
      service('twice', {
        ports: [
          { name: 'http', port: 80 },
          { name: 'http', port: 80 },
        ],
      }),
      'application/apply-patch+yaml',
    );
    expect(reply).toEqual({
      status: 500,
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'failed to create typed patch object (/twice; /v1, Kind=Service): .spec.ports: duplicate entries for key [port=80,protocol="TCP"]',
        code: 500,
      },
    });
  });
});

describe('custom resources', () => {
  it('are listed with an empty continue token', async () => {
    const reply = await send('GET', widgets());
    expect(reply.status).toBe(200);
    expect((reply.json as { metadata: unknown }).metadata).toEqual({
      continue: '',
      resourceVersion: expect.any(String),
    });
  });

  it('refuse an apply with a field their schema does not declare (500), and one with repeated map keys', async () => {
    const apply = (name: string, extra: Record<string, unknown>) =>
      send(
        'PATCH',
        `${widgets()}/${name}?fieldManager=alice`,
        { apiVersion: 'differential.example.com/v1', kind: 'Widget', metadata: { name }, ...extra },
        'application/apply-patch+yaml',
      );
    const undeclared = await apply('undeclared', { unknownField: { a: 1 } });
    expect(undeclared.status).toBe(500);
    expect(messageOf(undeclared)).toBe(
      'failed to create typed patch object (/undeclared; differential.example.com/v1, Kind=Widget): .unknownField: field not declared in schema',
    );
    const repeated = await apply('repeated', {
      spec: {
        ports: [
          { name: 'http', port: 1 },
          { name: 'http', port: 2 },
        ],
      },
    });
    expect(repeated.status).toBe(500);
    expect(messageOf(repeated)).toBe(
      'failed to create typed patch object (/repeated; differential.example.com/v1, Kind=Widget): .spec.ports: duplicate entries for key [name="http"]',
    );
  });
});
