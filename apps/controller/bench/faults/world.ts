/**
 * The fault bench's world: ten registered CRDs (Widget0..Widget9 of faults.example.com) and their
 * registrations, whose instances live in namespace `bench`. Each runs a one-replica Deployment; the
 * even ones add a Service. Widget6 and Widget7 call a pre-reconcile hook, Widget8 and Widget9 also a
 * finalize hook, which refuses (permanently: parked) the deletion of the instances named `parked-*`
 * until the bench consents, and lets the others go. The bench records each consent, so a finalizer
 * removed without one is seen.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { errorReply, type HookScript } from '../../test/support/hooks-server.ts';
import { crdFor } from '../../test/support/cluster.ts';
import { registeredKindRole } from '../../test/real-cluster/support/grants.ts';
import type { Workload } from '../chaos/cluster.ts';

export const GROUP = 'faults.example.com';
export const REGISTRATION_COUNT = 10;
/** Registrations with a pre-reconcile hook; the last two of them also finalize. */
const PRE_RECONCILE = new Set([6, 7, 8, 9]);
const FINALIZE = new Set([8, 9]);
export const PARKED_PREFIX = 'parked-';

export function workload(index: number): Workload {
  return {
    registration: `widget${index}`,
    apiVersion: `${GROUP}/v1`,
    kind: `Widget${index}`,
    resource: { group: GROUP, version: 'v1', resource: `widget${index}s`, namespaced: true },
  };
}

export const WORKLOADS: Workload[] = Array.from({ length: REGISTRATION_COUNT }, (_, index) =>
  workload(index),
);
/** The workloads whose deletions the finalize hook gates. */
export const FINALIZED: Workload[] = WORKLOADS.filter((_, index) => FINALIZE.has(index));

export function crds(): KubeObject[] {
  return WORKLOADS.map((each) => crdFor({ group: GROUP, kind: each.kind, plural: each.resource.resource }));
}

/** The ClusterRoles a cluster admin writes for the registered CRDs (aggregated into Scoby's). */
export function kindRoles(): KubeObject[] {
  return WORKLOADS.map((each) => registeredKindRole(GROUP, each.resource.resource));
}

export function registrations(hookUrl: string): KubeObject[] {
  return WORKLOADS.map((each, index) => {
    const capabilities = [
      ...(PRE_RECONCILE.has(index) ? ['pre-reconcile'] : []),
      ...(FINALIZE.has(index) ? ['finalize'] : []),
    ];
    return {
      apiVersion: 'scoby.triggermesh.io/v1alpha1',
      kind: 'CRDRegistration',
      metadata: { name: each.registration },
      spec: {
        crd: `${each.resource.resource}.${GROUP}`,
        workload: {
          fromImage: { repo: `registry.example.com/widget-${index}:1.0.0` },
          formFactor: {
            deployment: {
              replicas: 1,
              ...(index % 2 === 0 ? { service: { port: 80, targetPort: 8080 } } : {}),
            },
          },
          parameterConfiguration: { global: { defaultPrefix: 'WIDGET_' } },
        },
        ...(capabilities.length === 0
          ? {}
          : { hook: { version: 'v1', address: { uri: hookUrl }, capabilities, timeout: 'PT2S' } }),
      },
    };
  });
}

/** What the bench's hook answers, and what it consented to. */
export interface BenchHook {
  script: HookScript;
  /** uid → epoch ms of the first finalize answer that let the instance go. */
  consents: Map<string, number>;
  /** From now on, parked instances may go too. */
  releaseParked(): void;
  /** The share (0..1) of pre-reconcile calls answered 503 (the soak's hook faults). */
  failShare: number;
  /** Pre-reconcile calls answered 503 so far. */
  failed: number;
}

export function benchHook(random: () => number): BenchHook {
  let released = false;
  const hook: BenchHook = {
    consents: new Map(),
    releaseParked: () => (released = true),
    failShare: 0,
    failed: 0,
    script: (request) => {
      const { phase, object } = request.body;
      if (phase === 'pre-reconcile') {
        if (hook.failShare > 0 && random() < hook.failShare) {
          hook.failed++;
          return errorReply(503, { message: 'the fault bench says: not now' });
        }
        return { status: 204 };
      }
      if ((object.metadata.name ?? '').startsWith(PARKED_PREFIX) && !released) {
        return errorReply(409, { permanent: true, message: 'the fault bench keeps this instance' });
      }
      const uid = object.metadata.uid ?? '';
      if (!hook.consents.has(uid)) hook.consents.set(uid, request.at);
      return { status: 204 };
    },
  };
  return hook;
}
