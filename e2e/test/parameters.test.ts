/**
 * Every parameter customization of docs/spec/env.md in one registration: prefix, skip, rename, defaults (value,
 * legacy defaultValue, secret), Secret and ConfigMap references named in the spec, resolveAddress to a
 * Service and to an addressable, add.toEnv (value, field and its fieldRef alias, secret, controller
 * ConfigMap) and volumes from the spec and added ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_IMAGE,
  SCOBY_NAMESPACE,
  adapterOf,
  clusterForScenario,
  podSpecOf,
  registeredKindYaml,
  type ClusterHandle,
} from '../src/index.ts';

const KIND = { group: 'params.e2e.scoby.dev', kind: 'Adapter', plural: 'adapters' };

let cluster: ClusterHandle;
beforeAll(async () => {
  cluster = clusterForScenario();
  await cluster.apply(registeredKindYaml(KIND, 'params'));
  await cluster.apply(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.net.e2e.scoby.dev
spec:
  group: net.e2e.scoby.dev
  scope: Namespaced
  names: {kind: Gateway, plural: gateways, singular: gateway, listKind: GatewayList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: addressable-gateways
  labels:
    duck.knative.dev/addressable: "true"
rules:
- apiGroups: [net.e2e.scoby.dev]
  resources: [gateways, gateways/status]
  verbs: [get, list, watch]
---
apiVersion: net.e2e.scoby.dev/v1
kind: Gateway
metadata: {name: edge, namespace: params}
status:
  address:
    url: https://edge.params.example.com:8443/base?tenant=a
---
apiVersion: v1
kind: Service
metadata: {name: collector, namespace: params}
spec:
  ports: [{port: 80}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: scoby-flags, namespace: ${SCOBY_NAMESPACE}}
data:
  flags: beta,metrics
---
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata:
  name: params
spec:
  crd: adapters.params.e2e.scoby.dev
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    parameterConfiguration:
      global:
        defaultPrefix: APP_
      fromSpec:
        skip:
        - path: spec.internal
        toEnv:
        - {path: spec.logLevel, name: LOG_LEVEL}
        - {path: spec.mode, default: {value: fast}}
        - {path: spec.region, defaultValue: eu-west-1}
        - {path: spec.token, name: API_TOKEN, default: {secret: {name: api-creds, key: token}}}
        - path: spec.credentials
          name: DB_PASSWORD
          valueFrom:
            secretPath: {name: spec.credentials.secretName, key: spec.credentials.passwordKey}
        - path: spec.settings
          valueFrom:
            configMapPath: {name: $.spec.settings.cmName, key: spec.settings.key, optional: true}
        - {path: spec.sink, name: K_SINK, valueFrom: {builtInFunc: {name: resolveAddress}}}
        - {path: .spec.gateway, valueFrom: {builtInFunc: {name: resolveAddress}}}
        toVolume:
        - path: spec.tls
          name: tls
          mountPath: /etc/tls
          mountFrom:
            secretPath:
              secretName: spec.tls.secret
              items: [{key: spec.tls.certKey, path: cert.pem}]
              defaultMode: 256
      add:
        toEnv:
        - {name: POD_NAMESPACE, valueFrom: {field: {fieldPath: metadata.namespace}}}
        - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
        - {name: FEATURE_FLAGS, valueFromControllerConfigMap: {name: scoby-flags, key: flags}}
        - {name: SHARED_KEY, valueFrom: {secret: {name: shared-keys, key: api}}}
        - {name: STAGE, value: e2e}
        toVolume:
        - name: ca-bundle
          mountPath: /etc/ssl/custom
          mountFrom:
            configMapPath: {name: cluster-ca, items: [{key: ca.crt, path: ca.crt}], optional: true}
`);
});
afterAll(() => cluster.close());

const ADDED_ENV = {
  FEATURE_FLAGS: { name: 'FEATURE_FLAGS', value: 'beta,metrics' },
  NODE: { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
  POD_NAMESPACE: { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
  SHARED_KEY: { name: 'SHARED_KEY', valueFrom: { secretKeyRef: { name: 'shared-keys', key: 'api' } } },
  STAGE: { name: 'STAGE', value: 'e2e' },
};
const CA_BUNDLE = {
  name: 'ca-bundle',
  configMap: { name: 'cluster-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }], optional: true },
};

describe('parameter customizations', () => {
  it('renders a full spec with every kind of instruction', async () => {
    await cluster.apply(`
apiVersion: params.e2e.scoby.dev/v1
kind: Adapter
metadata: {name: full, namespace: params}
spec:
  logLevel: debug
  region: us-east-1
  tags: [blue, green]
  internal: {debugPort: 9999}
  credentials: {secretName: db-secret, passwordKey: password}
  settings: {cmName: db-settings, key: pool.conf}
  sink:
    ref: {apiVersion: v1, kind: Service, name: collector}
    uri: /events
  gateway:
    ref: {apiVersion: net.e2e.scoby.dev/v1, kind: Gateway, name: edge}
    uri: "//:9443?tenant=b"
  tls: {secret: web-tls, certKey: tls.crt}
`);
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'params',
      'params-full',
      'to be created',
    );
    expect(adapterOf(deployment)?.env).toMatchObject([
      { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'api-creds', key: 'token' } } },
      { name: 'APP_GATEWAY', value: 'https://edge.params.example.com:9443/base?tenant=b' },
      { name: 'APP_MODE', value: 'fast' },
      { name: 'APP_REGION', value: 'us-east-1' },
      {
        name: 'APP_SETTINGS',
        valueFrom: { configMapKeyRef: { name: 'db-settings', key: 'pool.conf', optional: true } },
      },
      { name: 'APP_TAGS', value: 'blue,green' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-secret', key: 'password' } } },
      ADDED_ENV.FEATURE_FLAGS,
      { name: 'K_SINK', value: 'http://collector.params.svc.cluster.local/events' },
      { name: 'LOG_LEVEL', value: 'debug' },
      ADDED_ENV.NODE,
      ADDED_ENV.POD_NAMESPACE,
      ADDED_ENV.SHARED_KEY,
      ADDED_ENV.STAGE,
    ]);
    expect(adapterOf(deployment)?.volumeMounts).toEqual([
      { name: 'ca-bundle', mountPath: '/etc/ssl/custom' },
      { name: 'tls', mountPath: '/etc/tls' },
    ]);
    expect(podSpecOf(deployment)?.volumes).toMatchObject([
      CA_BUNDLE,
      {
        name: 'tls',
        secret: { secretName: 'web-tls', items: [{ key: 'tls.crt', path: 'cert.pem' }], defaultMode: 256 },
      },
    ]);
  });

  it('renders defaults and added variables for an instance without spec', async () => {
    await cluster.apply(
      '{apiVersion: params.e2e.scoby.dev/v1, kind: Adapter, metadata: {name: bare, namespace: params}}',
    );
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'params',
      'params-bare',
      'to be created',
    );
    expect(adapterOf(deployment)?.env).toMatchObject([
      { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'api-creds', key: 'token' } } },
      { name: 'APP_MODE', value: 'fast' },
      { name: 'APP_REGION', value: 'eu-west-1' },
      ADDED_ENV.FEATURE_FLAGS,
      ADDED_ENV.NODE,
      ADDED_ENV.POD_NAMESPACE,
      ADDED_ENV.SHARED_KEY,
      ADDED_ENV.STAGE,
    ]);
    expect(adapterOf(deployment)?.volumeMounts).toEqual([
      { name: 'ca-bundle', mountPath: '/etc/ssl/custom' },
    ]);
    expect(podSpecOf(deployment)?.volumes).toMatchObject([CA_BUNDLE]);
  });

  it('follows a change of the controller ConfigMap without touching the instances', async () => {
    await cluster.apply(
      `{apiVersion: v1, kind: ConfigMap, metadata: {name: scoby-flags, namespace: ${SCOBY_NAMESPACE}}, data: {flags: gamma}}`,
    );
    for (const name of ['params-full', 'params-bare']) {
      await cluster.waitForObject(
        'apps/v1',
        'Deployment',
        'params',
        name,
        'to carry FEATURE_FLAGS=gamma',
        (object) =>
          (adapterOf(object)?.env as { name: string; value?: string }[]).some(
            (env) => env.name === 'FEATURE_FLAGS' && env.value === 'gamma',
          ),
      );
    }
  });
});
