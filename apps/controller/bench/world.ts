/**
 * What every bench run starts from: the Scoby CRD, a registered CRD, one registration (Deployment +
 * Service with a few parameter customisations), Scoby's flags ConfigMap and N instances.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { crdManifest } from '@scoby/registration';
import { DynamicClient, type ResourceRef } from '@scoby/controller-runtime';
import { crdFor } from '../test/support/cluster.ts';
import { inParallel } from './parallel.ts';

export const SCOBY_NAMESPACE = 'scoby-system';
export const NAMESPACE = 'bench';
export const FLAGS_CONFIGMAP = 'scoby-flags';
export const REGISTRATION = 'mailer';
export const INSTANCE_API_VERSION = 'notify.example.com/v1';
export const INSTANCES: ResourceRef = {
  group: 'notify.example.com',
  version: 'v1',
  resource: 'mailers',
  namespaced: true,
};
export const DEPLOYMENTS: ResourceRef = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespaced: true,
};
export const SERVICES: ResourceRef = { group: '', version: 'v1', resource: 'services', namespaced: true };
export const CONFIGMAPS: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };
export const NAMESPACES: ResourceRef = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespaced: false,
};
export const CRDS: ResourceRef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  namespaced: false,
};
export const REGISTRATIONS: ResourceRef = {
  group: 'scoby.triggermesh.io',
  version: 'v1alpha1',
  resource: 'crdregistrations',
  namespaced: false,
};

/** With `hookUrl` an HTTP pre-reconcile hook, with `hookModule` an in-process one. */
export function registration(hookUrl?: string, hookModule?: string): KubeObject {
  return {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: REGISTRATION },
    spec: {
      crd: 'mailers.notify.example.com',
      workload: {
        fromImage: { repo: 'registry.example.com/mailer-adapter:1.4.2' },
        formFactor: { deployment: { replicas: 2, service: { port: 80, targetPort: 8080 } } },
        parameterConfiguration: {
          global: { defaultPrefix: 'MAILER_' },
          fromSpec: {
            skip: [{ path: 'spec.internal' }],
            toEnv: [
              { path: 'spec.smtp.host', name: 'SMTP_SERVER' },
              { path: 'spec.replyTo', name: 'REPLY_TO', default: { value: 'noreply@example.com' } },
            ],
          },
          add: {
            toEnv: [
              { name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } },
              {
                name: 'FEATURE_FLAGS',
                valueFromControllerConfigMap: { name: FLAGS_CONFIGMAP, key: 'flags' },
              },
            ],
          },
        },
      },
      ...(hookUrl
        ? { hook: { version: 'v1', address: { uri: hookUrl }, capabilities: ['pre-reconcile'] } }
        : {}),
      ...(hookModule ? { hook: { version: 'v1', module: hookModule, capabilities: ['pre-reconcile'] } } : {}),
    },
  };
}

export function instanceName(index: number): string {
  return `mailer-${index}`;
}

function instance(index: number): KubeObject {
  return {
    apiVersion: INSTANCE_API_VERSION,
    kind: 'Mailer',
    metadata: { name: instanceName(index), namespace: NAMESPACE },
    spec: {
      smtp: { host: `smtp-${index}.mail.internal`, port: 587, tls: true },
      sender: `orders-${index}@example.com`,
      internal: { debug: false },
    },
  };
}

/** The flags ConfigMap; `revision` is read by no registration, so changing it must change nothing. */
export function flagsConfigMap(revision: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: FLAGS_CONFIGMAP, namespace: SCOBY_NAMESPACE },
    data: { flags: 'fast-path', revision },
  };
}

export async function updateFlagsConfigMap(client: DynamicClient, revision: string): Promise<void> {
  const current = await client.get(CONFIGMAPS, SCOBY_NAMESPACE, FLAGS_CONFIGMAP);
  const next = flagsConfigMap(revision);
  await client.request('PUT', `/api/v1/namespaces/${SCOBY_NAMESPACE}/configmaps/${FLAGS_CONFIGMAP}`, {
    body: { ...next, metadata: { ...next.metadata, resourceVersion: current.metadata.resourceVersion } },
  });
}

/** Creates the world with `count` instances; the registration is created only when given. */
export async function createWorld(
  client: DynamicClient,
  count: number,
  concurrency: number,
  withRegistration?: KubeObject,
): Promise<void> {
  await client.create(CRDS, crdManifest());
  await client.create(CRDS, crdFor({ group: 'notify.example.com', kind: 'Mailer', plural: 'mailers' }));
  for (const name of [SCOBY_NAMESPACE, NAMESPACE]) {
    await client.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  await client.create(CONFIGMAPS, flagsConfigMap('1'));
  await waitForServed(client);
  await inParallel(count, concurrency, (index) => client.create(INSTANCES, instance(index)));
  if (withRegistration) await client.create(REGISTRATIONS, withRegistration);
}

export const WORLD_WRITE_PATHS = {
  configMap: `/api/v1/namespaces/${SCOBY_NAMESPACE}/configmaps/${FLAGS_CONFIGMAP}`,
};

/** A new CRD is served a moment after it is created. */
async function waitForServed(client: DynamicClient): Promise<void> {
  for (;;) {
    if (await client.resourceFor(INSTANCE_API_VERSION, 'Mailer')) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
