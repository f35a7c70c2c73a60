/**
 * The Greeter sample of apps/controller/samples (CRD, its ClusterRole, registration), with the
 * greeter-env image as its adapter so that pods really run and answer with their environment.
 */
import { readFile } from 'node:fs/promises';
import type { KubeObject } from '@scoby/kube-objects';
import type { ClusterHandle } from './handle.ts';
import { conditionOf } from './objects.ts';

const SAMPLES = new URL('../../apps/controller/samples/', import.meta.url);
export const GREETER_ENV_IMAGE = 'scoby.local/greeter-env:dev';
export const GREETER_API_VERSION = 'samples.scoby.dev/v1alpha1';

const sample = (file: string): Promise<string> => readFile(new URL(file, SAMPLES), 'utf8');

export async function applyGreeterSample(cluster: ClusterHandle, namespace: string): Promise<void> {
  await cluster.apply(await sample('greeter-crd.yaml'));
  await cluster.apply(await sample('greeter-clusterrole.yaml'));
  await cluster.apply(
    (await sample('greeter-registration.yaml')).replace(
      'registry.example.com/samples/greeter:1.0.0',
      GREETER_ENV_IMAGE,
    ),
  );
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
}

export async function applyGreeter(
  cluster: ClusterHandle,
  namespace: string,
  name: string,
  greeting: string,
): Promise<void> {
  await cluster.apply({
    apiVersion: GREETER_API_VERSION,
    kind: 'Greeter',
    metadata: { name, namespace },
    spec: { greeting },
  });
}

export const isReady = (object: KubeObject): boolean => conditionOf(object, 'Ready')?.status === 'True';

export function waitForReadyGreeter(
  cluster: ClusterHandle,
  namespace: string,
  name: string,
): Promise<KubeObject> {
  return cluster.waitForObject(GREETER_API_VERSION, 'Greeter', namespace, name, 'to be Ready', isReady);
}
