/**
 * How the fault scenarios judge what a fault did (src/faults/fault-report.ts), on objects as the API
 * server returns them: an edit is lost until the child carries it and the instance's status reports
 * its generation; converged once, besides, the rollout is complete and the instance Ready; two
 * Deployments of one instance are a duplicate; a held instance without its finalizer is an
 * unconsented removal unless the hook consented.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import {
  childState,
  duplicateChildren,
  formatFaultReport,
  instanceState,
  lostUpdates,
  notConverged,
  SCOBY_FINALIZER,
  unconsentedRemovals,
  type BenchState,
} from '../../src/faults/fault-report.ts';

function instance(
  name: string,
  options: { generation?: number; observed?: number; ready?: boolean; finalizers?: string[] } = {},
): KubeObject {
  return {
    apiVersion: 'x.faults.e2e.scoby.dev/v1',
    kind: 'Widget',
    metadata: {
      name,
      namespace: 'faults-x',
      uid: `uid-${name}`,
      generation: options.generation ?? 2,
      finalizers: options.finalizers ?? [SCOBY_FINALIZER],
    },
    spec: { message: 'edited' },
    status: {
      observedGeneration: options.observed ?? 2,
      conditions: [
        { type: 'Ready', status: options.ready === false ? 'False' : 'True', reason: 'r', message: '' },
      ],
    },
  };
}

function deployment(
  name: string,
  owner: string,
  message: string,
  status: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
  } = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'faults-x',
      generation: 3,
      ownerReferences: [
        { apiVersion: 'x/v1', kind: 'Widget', name: owner, uid: `uid-${owner}`, controller: true },
      ],
    },
    spec: {
      replicas: 1,
      template: {
        spec: {
          containers: [{ name: 'adapter', image: 'pause', env: [{ name: 'MESSAGE', value: message }] }],
        },
      },
    },
    status: { observedGeneration: 3, replicas: 1, updatedReplicas: 1, availableReplicas: 1, ...status },
  };
}

const state = (instances: KubeObject[], deployments: KubeObject[]): BenchState => ({
  instances: instances.map(instanceState),
  children: deployments.map(childState),
});
const EDITS = { a: 'edited' };

describe('fault report', () => {
  it('counts an instance converged once its child carries the edit, rolled out, and it is Ready', () => {
    const converged = state([instance('a')], [deployment('widget-a', 'a', 'edited')]);
    expect(lostUpdates(converged, EDITS)).toEqual([]);
    expect(notConverged(converged, EDITS)).toEqual([]);
  });

  it('counts the edit lost while the child carries the old value or the status an older generation', () => {
    const oldChild = state([instance('a')], [deployment('widget-a', 'a', 'initial')]);
    expect(lostUpdates(oldChild, EDITS)).toEqual(['a']);
    expect(notConverged(oldChild, EDITS)).toEqual(['a']);
    const oldStatus = state([instance('a', { observed: 1 })], [deployment('widget-a', 'a', 'edited')]);
    expect(lostUpdates(oldStatus, EDITS)).toEqual(['a']);
    const gone = state([], []);
    expect(lostUpdates(gone, EDITS)).toEqual(['a']);
  });

  it('is not converged while the rollout runs or the instance is not Ready, though nothing is lost', () => {
    for (const rollout of [
      { updatedReplicas: 0 },
      { replicas: 2 },
      { availableReplicas: 0 },
      { observedGeneration: 2 },
    ]) {
      const rolling = state([instance('a')], [deployment('widget-a', 'a', 'edited', rollout)]);
      expect(lostUpdates(rolling, EDITS)).toEqual([]);
      expect(notConverged(rolling, EDITS)).toEqual(['a']);
    }
    const notReady = state([instance('a', { ready: false })], [deployment('widget-a', 'a', 'edited')]);
    expect(lostUpdates(notReady, EDITS)).toEqual([]);
    expect(notConverged(notReady, EDITS)).toEqual(['a']);
  });

  it('names an instance controlling two Deployments as a duplicate', () => {
    const twice = state(
      [instance('a'), instance('b')],
      [
        deployment('widget-a', 'a', 'edited'),
        deployment('widget-a-2', 'a', 'edited'),
        deployment('widget-b', 'b', 'x'),
      ],
    );
    expect(duplicateChildren(twice)).toEqual(['a: widget-a, widget-a-2']);
    // A stale second child is not converged either: it does not carry the edit.
    expect(
      notConverged(
        state(
          [instance('a')],
          [deployment('widget-a', 'a', 'edited'), deployment('widget-a-2', 'a', 'initial')],
        ),
        EDITS,
      ),
    ).toEqual(['a']);
  });

  it('counts a held instance without its finalizer, or gone, as removed without consent unless the hook consented', () => {
    const held = state([instance('h0', { finalizers: ['other'] }), instance('h1')], []);
    expect(unconsentedRemovals(held, ['h0', 'h1', 'h2'], new Set())).toEqual(['h0', 'h2']);
    expect(unconsentedRemovals(held, ['h0', 'h1', 'h2'], new Set(['h0', 'h2']))).toEqual([]);
  });

  it('prints one line per fault', () => {
    expect(
      formatFaultReport({
        fault: 'kubelet restarted',
        faultSeconds: 1.234,
        recoverySeconds: 8.56,
        lost: [],
        duplicates: [],
        unconsented: [],
      }),
    ).toBe(
      'fault "kubelet restarted" (1.2 s): recovery 8.6 s after the fault ended; lost updates 0; duplicate children 0; ' +
        "finalizers removed without the hook's consent 0",
    );
    expect(
      formatFaultReport({
        fault: 'f',
        faultSeconds: 0,
        recoverySeconds: undefined,
        lost: ['a', 'b'],
        duplicates: [],
        unconsented: ['h0'],
      }),
    ).toBe(
      'fault "f" (0.0 s): no recovery; lost updates 2 (a; b); duplicate children 0; ' +
        "finalizers removed without the hook's consent 1 (h0)",
    );
  });
});
