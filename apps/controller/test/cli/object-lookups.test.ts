import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { objectLookups, objectReader } from '../../src/cli/render/object-lookups.ts';

const collector: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'collector', namespace: 'shop' },
};
const broker: KubeObject = {
  apiVersion: 'eventing.knative.dev/v1',
  kind: 'Broker',
  metadata: { name: 'default', namespace: 'infra' },
  status: { address: { url: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default' } },
};
const gatewayCrd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gatewayz.net.example.com' },
  spec: {
    group: 'net.example.com',
    names: { kind: 'Gateway', plural: 'gatewayz' },
    versions: [{ name: 'v1' }],
  },
};
const flags = (namespace: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'scoby-flags', namespace },
  data: { flags: 'beta,metrics' },
});

describe('objectReader', () => {
  const reader = objectReader([collector, broker, gatewayCrd]);

  it('finds objects by apiVersion, kind, namespace and name', async () => {
    expect(
      await reader.get({ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'collector' }),
    ).toEqual({ found: true, object: collector });
  });

  it('answers with the API server message for a missing object of a known kind', async () => {
    expect(
      await reader.get({ apiVersion: 'v1', kind: 'Service', namespace: 'other', name: 'collector' }),
    ).toEqual({
      found: false,
      message: 'services "collector" not found',
    });
    expect(
      await reader.get({
        apiVersion: 'eventing.knative.dev/v1',
        kind: 'Broker',
        namespace: 'infra',
        name: 'main',
      }),
    ).toEqual({
      found: false,
      message: 'brokers.eventing.knative.dev "main" not found',
    });
  });

  it('takes resource names from CRDs among the objects', async () => {
    expect(
      await reader.get({
        apiVersion: 'net.example.com/v1',
        kind: 'Gateway',
        namespace: 'shop',
        name: 'edge',
      }),
    ).toEqual({
      found: false,
      message: 'gatewayz.net.example.com "edge" not found',
    });
  });

  it('guesses resource names like client-go for kinds without a CRD', async () => {
    const reader = objectReader([
      { apiVersion: 'x.dev/v1', kind: 'Policy', metadata: { name: 'p' } },
      { apiVersion: 'x.dev/v1', kind: 'Ingress', metadata: { name: 'i' } },
    ]);
    expect(await reader.get({ apiVersion: 'x.dev/v1', kind: 'Policy', namespace: 'n', name: 'q' })).toEqual({
      found: false,
      message: 'policies.x.dev "q" not found',
    });
    expect(await reader.get({ apiVersion: 'x.dev/v1', kind: 'Ingress', namespace: 'n', name: 'j' })).toEqual({
      found: false,
      message: 'ingresses.x.dev "j" not found',
    });
  });

  it('does not know kinds that no object and no CRD mention', async () => {
    expect(
      await reader.get({
        apiVersion: 'serving.knative.dev/v1',
        kind: 'Service',
        namespace: 'shop',
        name: 'x',
      }),
    ).toEqual({ unknownKind: true });
  });
});

describe('objectLookups', () => {
  const lookups = objectLookups([collector, broker, flags('triggermesh'), flags('elsewhere')], {
    scobyNamespace: 'triggermesh',
    clusterDomain: 'example.internal',
  });

  it('resolves destinations with the instance namespace and the cluster domain (docs/spec/address.md A2, A6)', async () => {
    expect(
      await lookups.resolveAddress(
        { ref: { apiVersion: 'v1', kind: 'Service', name: 'collector' }, uri: '/events' },
        'shop',
      ),
    ).toEqual({
      ok: true,
      url: 'http://collector.shop.svc.example.internal/events',
    });
    expect(
      await lookups.resolveAddress(
        {
          ref: { apiVersion: 'eventing.knative.dev/v1', kind: 'Broker', name: 'default', namespace: 'infra' },
        },
        'shop',
      ),
    ).toEqual({ ok: true, url: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default' });
  });

  it('serves controller ConfigMaps from Scoby namespace only', () => {
    expect(lookups.controllerConfigMap('scoby-flags')).toEqual({ flags: 'beta,metrics' });
    expect(lookups.controllerConfigMap('other')).toBeUndefined();
    expect(lookups.controllerNamespace).toBe('triggermesh');
  });
});
