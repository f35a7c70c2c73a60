/**
 * The rest of a pod template that workloads commonly carry, defaulted and validated as kube-apiserver
 * does: probes, container resources (quantities in kube's canonical form) and the common volume sources
 * beyond configMap and secret (emptyDir with a size limit, persistentVolumeClaim, hostPath, downwardAPI,
 * projected). Expectations are kube-apiserver v1.34.4's answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, freshNamespace, rawRequest, type Target } from './harness.ts';
import { createDeployment as createDeploymentRequest, sortedCauses } from './pod-template-requests.ts';

let target: Target;
let namespace: string;

beforeAll(async () => {
  target = await connect();
  namespace = await freshNamespace(target, 'podspec-more');
});
afterAll(() => target.stop());

function createDeployment(name: string, podSpec: Record<string, unknown>) {
  return createDeploymentRequest(target, namespace, name, podSpec, '?dryRun=All');
}

function container(extra: Record<string, unknown>) {
  return { name: 'main', image: 'example.com/app:1', ...extra };
}

function podSpecOf(json: unknown): { containers: Record<string, unknown>[]; volumes: unknown[] } {
  return (
    json as { spec: { template: { spec: { containers: Record<string, unknown>[]; volumes: unknown[] } } } }
  ).spec.template.spec;
}

const C = 'spec.template.spec.containers[0]';
const V = 'spec.template.spec.volumes';

describe('probes', () => {
  it('are defaulted: periods and thresholds, an HTTP path and scheme, a gRPC service', async () => {
    const reply = await createDeployment('probes', {
      containers: [
        container({
          livenessProbe: { httpGet: { port: 8080 } },
          readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 5 },
          startupProbe: { grpc: { port: 9000 } },
        }),
      ],
    });
    expect(reply.status).toBe(201);
    const main = podSpecOf(reply.json).containers[0] ?? {};
    const defaults = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };
    expect(main.livenessProbe).toEqual({ httpGet: { path: '/', port: 8080, scheme: 'HTTP' }, ...defaults });
    expect(main.readinessProbe).toEqual({ tcpSocket: { port: 'http' }, ...defaults, periodSeconds: 5 });
    expect(main.startupProbe).toEqual({ grpc: { port: 9000, service: '' }, ...defaults });
  });

  it('need exactly one handler with valid fields, non-negative periods, one success for liveness', async () => {
    const reply = await createDeployment('bad-probes', {
      containers: [
        container({
          livenessProbe: {
            exec: { command: ['true'] },
            httpGet: { port: 0, scheme: 'FTP' },
            successThreshold: 2,
            periodSeconds: -1,
          },
          readinessProbe: { initialDelaySeconds: -1 },
          startupProbe: { grpc: { port: 70000 }, terminationGracePeriodSeconds: 0 },
        }),
        container({
          name: 'second',
          livenessProbe: { httpGet: { port: 'not--valid', scheme: 'FTP' } },
          readinessProbe: { exec: {} },
        }),
      ],
    });
    expect(reply.status).toBe(422);
    const C1 = 'spec.template.spec.containers[1]';
    expect(sortedCauses(reply.json)).toEqual(
      sortedCauses({
        details: {
          causes: [
            {
              reason: 'FieldValueForbidden',
              message: 'Forbidden: may not specify more than 1 handler type',
              field: `${C}.livenessProbe.httpGet`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: -1: must be greater than or equal to 0',
              field: `${C}.livenessProbe.periodSeconds`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: 2: must be 1',
              field: `${C}.livenessProbe.successThreshold`,
            },
            {
              reason: 'FieldValueRequired',
              message: 'Required value: must specify a handler type',
              field: `${C}.readinessProbe`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: -1: must be greater than or equal to 0',
              field: `${C}.readinessProbe.initialDelaySeconds`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: 70000: must be between 1 and 65535, inclusive',
              field: `${C}.startupProbe.grpc.port`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: 0: must be greater than 0',
              field: `${C}.startupProbe.terminationGracePeriodSeconds`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: "not--valid": must not contain consecutive hyphens',
              field: `${C1}.livenessProbe.httpGet.port`,
            },
            {
              reason: 'FieldValueNotSupported',
              message: 'Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
              field: `${C1}.livenessProbe.httpGet.scheme`,
            },
            {
              reason: 'FieldValueRequired',
              message: 'Required value',
              field: `${C1}.readinessProbe.exec.command`,
            },
          ],
        },
      }),
    );
  });
});

describe('container resources', () => {
  it('are written back in canonical form, rounded up to thousandths', async () => {
    const reply = await createDeployment('quantities', {
      containers: [
        container({
          resources: {
            limits: { cpu: 2.5, memory: '1024Mi', 'example.com/gpu': '1', 'hugepages-2Mi': '2Mi' },
            requests: { cpu: '0.5', memory: '1.5Ki', 'ephemeral-storage': '1e3', 'hugepages-2Mi': '2Mi' },
          },
        }),
        container({
          name: 'second',
          resources: { requests: { cpu: '1.1234567891', memory: '1500000', 'ephemeral-storage': '+1' } },
        }),
      ],
    });
    expect(reply.status).toBe(201);
    const [main, second] = podSpecOf(reply.json).containers;
    expect(main?.resources).toEqual({
      limits: { cpu: '2500m', memory: '1Gi', 'example.com/gpu': '1', 'hugepages-2Mi': '2Mi' },
      requests: { cpu: '500m', memory: '1536', 'ephemeral-storage': '1e3', 'hugepages-2Mi': '2Mi' },
    });
    expect(second?.resources).toEqual({
      requests: { cpu: '1124m', memory: '1500k', 'ephemeral-storage': '+1' },
    });
  });

  it('refuse a quantity that does not parse with the decoder’s 400', async () => {
    const reply = await createDeployment('unparsable', {
      containers: [container({ resources: { limits: { cpu: 'one' } } })],
    });
    expect(reply.status).toBe(400);
    expect((reply.json as { message: string }).message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
    );
  });

  it('refuse an applied quantity that does not parse with the converter’s bare error (500)', async () => {
    const reply = await rawRequest(
      target,
      'PATCH',
      `/apis/apps/v1/namespaces/${namespace}/deployments/applied?fieldManager=alice`,
      {
        contentType: 'application/apply-patch+yaml',
        text: JSON.stringify({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'applied' },
          spec: {
            selector: { matchLabels: { app: 'applied' } },
            template: {
              metadata: { labels: { app: 'applied' } },
              spec: { containers: [container({ resources: { limits: { memory: 'lots' } } })] },
            },
          },
        }),
      },
    );
    expect(reply.status).toBe(500);
    expect((reply.json as { message: string }).message).toBe(
      "failed to convert new object (/applied; apps/v1, Kind=Deployment) to proper version: unable to convert unstructured object to apps/v1, Kind=Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });

  it('need standard or qualified names, non-negative values, requests within limits and limits for extended resources', async () => {
    const reply = await createDeployment('bad-resources', {
      containers: [
        container({
          resources: {
            limits: { cpu: '1', memory: '-1Gi', 'example.com/gpu': '1', bogus: '1' },
            requests: { cpu: '2', 'example.com/gpu': '2', 'example.com/fpga': '1' },
          },
        }),
      ],
    });
    expect(reply.status).toBe(422);
    expect(sortedCauses(reply.json)).toEqual(
      sortedCauses({
        details: {
          causes: [
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: "-1Gi": must be greater than or equal to 0',
              field: `${C}.resources.limits[memory]`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: "bogus": must be a standard resource type or fully qualified',
              field: `${C}.resources.limits[bogus]`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: "bogus": must be a standard resource for containers',
              field: `${C}.resources.limits[bogus]`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: "2": must be less than or equal to cpu limit of 1',
              field: `${C}.resources.requests`,
            },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: "2": must be equal to example.com/gpu limit of 1',
              field: `${C}.resources.requests`,
            },
            {
              reason: 'FieldValueRequired',
              message: 'Required value: Limit must be set for non overcommitable resources',
              field: `${C}.resources.limits`,
            },
          ],
        },
      }),
    );
  });
});

describe('volume sources', () => {
  it('are defaulted: hostPath type, downwardAPI and projected modes, fieldRef version, token expiry', async () => {
    const reply = await createDeployment('volumes', {
      volumes: [
        { name: 'scratch', emptyDir: { sizeLimit: '1024Mi' } },
        { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
        { name: 'host', hostPath: { path: '/tmp' } },
        {
          name: 'downward',
          downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
        },
        {
          name: 'projected',
          projected: { sources: [{ configMap: { name: 'c' } }, { serviceAccountToken: { path: 't' } }] },
        },
      ],
      containers: [container({})],
    });
    expect(reply.status).toBe(201);
    expect(podSpecOf(reply.json).volumes).toEqual([
      { name: 'scratch', emptyDir: { sizeLimit: '1Gi' } },
      { name: 'claim', persistentVolumeClaim: { claimName: 'data' } },
      { name: 'host', hostPath: { path: '/tmp', type: '' } },
      {
        name: 'downward',
        downwardAPI: {
          items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }],
          defaultMode: 420,
        },
      },
      {
        name: 'projected',
        projected: {
          sources: [
            { configMap: { name: 'c' } },
            { serviceAccountToken: { expirationSeconds: 3600, path: 't' } },
          ],
          defaultMode: 420,
        },
      },
    ]);
  });

  it('are validated: exactly one source, a size limit, a claim name, a host path, downward files', async () => {
    const reply = await createDeployment('bad-volumes', {
      volumes: [
        { name: 'e', emptyDir: { sizeLimit: '-1Gi' } },
        { name: 'p', persistentVolumeClaim: { claimName: '' } },
        { name: 'h', hostPath: { path: '' } },
        { name: 'd', downwardAPI: { items: [{ path: '../l', fieldRef: { fieldPath: 'metadata.bogus' } }] } },
        { name: 'two', emptyDir: {}, hostPath: { path: '/x' } },
        { name: 't', hostPath: { path: '/x', type: 'Bogus' } },
      ],
      containers: [container({})],
    });
    expect(reply.status).toBe(422);
    expect(sortedCauses(reply.json)).toEqual(
      sortedCauses({
        details: {
          causes: [
            {
              reason: 'FieldValueForbidden',
              message: 'Forbidden: SizeLimit field must be a valid resource quantity',
              field: `${V}[0].emptyDir.sizeLimit`,
            },
            {
              reason: 'FieldValueRequired',
              message: 'Required value',
              field: `${V}[1].persistentVolumeClaim.claimName`,
            },
            { reason: 'FieldValueRequired', message: 'Required value', field: `${V}[2].hostPath.path` },
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: "../l": must not contain \'..\'',
              field: `${V}[3].downwardAPI.path`,
            },
            {
              reason: 'FieldValueInvalid',
              message:
                'Invalid value: "metadata.bogus": error converting fieldPath: field label not supported: metadata.bogus',
              field: `${V}[3].downwardAPI.fieldRef.fieldPath`,
            },
            {
              reason: 'FieldValueForbidden',
              message: 'Forbidden: may not specify more than 1 volume type',
              field: `${V}[4].hostPath`,
            },
            {
              reason: 'FieldValueNotSupported',
              message:
                'Unsupported value: "Bogus": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
              field: `${V}[5].hostPath.type`,
            },
          ],
        },
      }),
    );
  });
});
