/**
 * Registrations whose hook never answers: `count` CRDs (Hang0, Hang1, ...) share one hook service, as
 * CRDs of one team often do, each with `instances` instances, so that every one of them has work
 * that waits on the hook until its timeout.
 */
import { inParallel } from '../parallel.ts';
import { crdFor } from '../../test/support/cluster.ts';
import { NAMESPACE } from '../world.ts';
import { REGISTRATIONS, type ChaosCluster } from './cluster.ts';

const GROUP = 'hang.example.com';

/** The kind of hanging registration `index`; its registration is named after it in lower case. */
export const hangingKind = (index: number) => `Hang${index}`;

export async function createHangingRegistrations(
  cluster: ChaosCluster,
  options: { count: number; instances: number; hookUrl: string; timeout?: string },
): Promise<void> {
  for (let index = 0; index < options.count; index++) {
    const kind = hangingKind(index);
    const plural = `${kind.toLowerCase()}s`;
    await cluster.createCrd(crdFor({ group: GROUP, kind, plural }));
    await cluster.client.create(REGISTRATIONS, {
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: kind.toLowerCase() },
      spec: {
        crd: `${plural}.${GROUP}`,
        workload: { fromImage: { repo: `registry.example.com/${kind.toLowerCase()}:1` } },
        hook: {
          version: 'v1',
          address: { uri: options.hookUrl },
          capabilities: ['pre-reconcile'],
          ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        },
      },
    });
    const resource = { group: GROUP, version: 'v1', resource: plural, namespaced: true };
    await inParallel(options.instances, 4, (instance) =>
      cluster.client.create(resource, {
        apiVersion: `${GROUP}/v1`,
        kind,
        metadata: { name: `${kind.toLowerCase()}-${instance}`, namespace: NAMESPACE },
        spec: { instance },
      }),
    );
  }
}
