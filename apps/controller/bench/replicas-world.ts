/**
 * The replicas bench's world: R registrations, each of a CRD of its own (group `k<i>.notify.example.com`,
 * kind Mailer) shaped as the controller bench's one (world.ts: a Deployment and a Service per
 * instance), each with N instances in a namespace of its own (`bench-<i>`), and Scoby's flags
 * ConfigMap. The instances are created first; the registrations when the bench says so.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { crdManifest } from '@scoby/registration';
import type { DynamicClient, ResourceRef } from '@scoby/controller-runtime';
import { crdFor } from '../test/support/cluster.ts';
import { inParallel } from './parallel.ts';
import {
  CONFIGMAPS,
  CRDS,
  flagsConfigMap,
  NAMESPACES,
  registration,
  REGISTRATIONS,
  SCOBY_NAMESPACE,
} from './world.ts';

export const registrationName = (index: number): string => `mailer-${index}`;
export const namespaceOf = (index: number): string => `bench-${index}`;
const groupOf = (index: number) => `k${index}.notify.example.com`;
export const instanceName = (number: number): string => `mailer-${number}`;

/** Registration `index`'s instance kind. */
export function instancesOf(index: number): ResourceRef {
  return { group: groupOf(index), version: 'v1', resource: 'mailers', namespaced: true };
}

/** Registration `index`: world.ts's registration for the CRD of its own. */
function registrationFor(index: number): KubeObject {
  const base = registration();
  return {
    ...base,
    metadata: { name: registrationName(index) },
    spec: { ...(base.spec as object), crd: `mailers.${groupOf(index)}` },
  };
}

function instance(index: number, number: number): KubeObject {
  return {
    apiVersion: `${groupOf(index)}/v1`,
    kind: 'Mailer',
    metadata: { name: instanceName(number), namespace: namespaceOf(index) },
    spec: {
      smtp: { host: `smtp-${number}.mail.internal`, port: 587, tls: true },
      sender: `orders-${number}@example.com`,
      internal: { debug: false },
    },
  };
}

/** Creates the CRDs, namespaces, flags ConfigMap and R × N instances; no registration yet. */
export async function createReplicasWorld(
  client: DynamicClient,
  registrations: number,
  perRegistration: number,
  concurrency: number,
): Promise<void> {
  await client.create(CRDS, crdManifest());
  for (let index = 0; index < registrations; index++) {
    await client.create(CRDS, crdFor({ group: groupOf(index), kind: 'Mailer', plural: 'mailers' }));
  }
  const namespaces = [SCOBY_NAMESPACE, ...Array.from({ length: registrations }, (_, i) => namespaceOf(i))];
  for (const name of namespaces) {
    await client.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  await client.create(CONFIGMAPS, flagsConfigMap('1'));
  for (let index = 0; index < registrations; index++) await waitForServed(client, index);
  await inParallel(registrations * perRegistration, concurrency, (at) =>
    client.create(
      instancesOf(at % registrations),
      instance(at % registrations, Math.floor(at / registrations)),
    ),
  );
}

export async function createRegistrations(client: DynamicClient, registrations: number): Promise<void> {
  for (let index = 0; index < registrations; index++) {
    await client.create(REGISTRATIONS, registrationFor(index));
  }
}

/** A spec change (a new generation) of one instance of registration `index`; its new generation. */
export async function editInstance(
  client: DynamicClient,
  index: number,
  number: number,
  sender: string,
): Promise<number> {
  const edited = await client.patch(instancesOf(index), namespaceOf(index), instanceName(number), {
    spec: { sender },
  });
  return edited.metadata.generation ?? 0;
}

/** A new CRD is served a moment after it is created. */
async function waitForServed(client: DynamicClient, index: number): Promise<void> {
  for (;;) {
    if (await client.resourceFor(`${groupOf(index)}/v1`, 'Mailer')) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
