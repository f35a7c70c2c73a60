/** One registration's side of instance selection (docs/spec/registration.md §6.8), over fixed registrations. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { CRDRegistration } from '@scoby/registration';
import type { InformerFactory, InformerHandle, ObjectKey } from '@scoby/controller-runtime';
import { InstanceSelection } from '../../src/registration/instance-selection.ts';
import { namespaceWatch, SelectionGate } from '../../src/instance/selection-gate.ts';
import type { ChildStore } from '../../src/instance/children/write-children.ts';

const CRD = 'queues.example.com';
const registration = (name: string, second: number, selector?: Record<string, string>): CRDRegistration => ({
  apiVersion: 'scoby.triggermesh.io/v1alpha1',
  kind: 'CRDRegistration',
  metadata: { name, creationTimestamp: `2025-01-01T00:00:0${second}Z` },
  spec: {
    crd: CRD,
    workload: { fromImage: { repo: 'x' } },
    ...(selector ? { selector: { matchLabels: selector } } : {}),
  },
});
const instance = (labels: Record<string, string>, deleting = false): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Queue',
  metadata: {
    name: 'jobs',
    namespace: 'shop',
    uid: 'u1',
    labels,
    ...(deleting ? { deletionTimestamp: '2025-01-02T00:00:00Z' } : {}),
  },
});
/** Children of `jobs` labelled with the registrations named. */
const childrenOf = (...registrations: string[]): ChildStore =>
  ({
    list: () =>
      registrations.map((name) => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: `${name}-jobs`,
          namespace: 'shop',
          labels: { 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': 'jobs' },
          ownerReferences: [
            { apiVersion: 'example.com/v1', kind: 'Queue', name: 'jobs', uid: 'u1', controller: true },
          ],
        },
      })),
  }) as unknown as ChildStore;

function gateFor(registrations: CRDRegistration[]) {
  const said: string[] = [];
  let changes = 0;
  const selection = new InstanceSelection({
    factory: {} as InformerFactory,
    registrations: () => registrations,
  });
  const gate = new SelectionGate({
    selection,
    servedByOther: (key, by) => said.push(`${key} by ${by}`),
    selectionChanged: () => changes++,
  });
  return { gate, said, changes: () => changes };
}

describe('SelectionGate', () => {
  const canaryFirst = [registration('canary', 1, { track: 'canary' }), registration('stable', 2)];

  it('reconciles what it serves, leaves what an older one serves and says so once per change', () => {
    const canary = gateFor(canaryFirst);
    const stable = gateFor(canaryFirst);
    const none = childrenOf();
    expect(canary.gate.judge('canary', CRD, 'shop/jobs', instance({ track: 'canary' }), none)).toBe(
      'reconcile',
    );
    expect(stable.gate.judge('stable', CRD, 'shop/jobs', instance({ track: 'canary' }), none)).toBe('leave');
    expect(stable.gate.judge('stable', CRD, 'shop/jobs', instance({ track: 'canary' }), none)).toBe('leave');
    expect(stable.said).toEqual(['shop/jobs by canary']);
    expect(stable.gate.judge('stable', CRD, 'shop/jobs', instance({}), none)).toBe('reconcile');
    expect(stable.gate.judge('stable', CRD, 'shop/jobs', instance({ track: 'canary' }), none)).toBe('leave');
    expect(stable.said).toEqual(['shop/jobs by canary', 'shop/jobs by canary']);
    expect([canary.said, canary.changes(), stable.changes()]).toEqual([[], 1, 3]);
    expect(stable.gate.counts('stable', CRD, [instance({ track: 'canary' }), instance({})])).toEqual({
      served: 1,
      servedByOthers: 1,
    });
    expect(canary.gate.counts('canary', CRD, [instance({ track: 'canary' }), instance({})])).toEqual({
      served: 1,
      servedByOthers: 0,
    });
  });

  it('a deleted instance nobody selects goes to the registration whose children it has, else to the first candidate', () => {
    const { gate } = gateFor([
      registration('gold', 1, { tier: 'gold' }),
      registration('silver', 2, { tier: 'silver' }),
    ]);
    const left = instance({ tier: 'bronze' });
    expect(gate.judge('gold', CRD, 'shop/jobs', left, childrenOf('gold'))).toBe('leave');
    const deleted = instance({ tier: 'bronze' }, true);
    expect(gate.judge('gold', CRD, 'shop/jobs', deleted, childrenOf('silver'))).toBe('leave');
    expect(gate.judge('silver', CRD, 'shop/jobs', deleted, childrenOf('silver'))).toBe('reconcile');
    expect(gate.judge('gold', CRD, 'shop/jobs', deleted, childrenOf())).toBe('reconcile');
    expect(gate.judge('silver', CRD, 'shop/jobs', deleted, childrenOf())).toBe('leave');
  });

  it('with one registration that selects everything, serves every instance and asks for no counts', () => {
    const { gate, said, changes } = gateFor([registration('only', 1)]);
    expect(gate.judge('only', CRD, 'shop/jobs', instance({ any: 'x' }), childrenOf())).toBe('reconcile');
    gate.forget('only', CRD, 'shop/jobs');
    expect([said, changes()]).toEqual([[], 0]);
  });
});

describe('namespaceWatch', () => {
  const namespace = (labels: Record<string, string>, resourceVersion: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop', labels, resourceVersion },
  });
  const key = (name: string): ObjectKey => ({ group: 'example.com', kind: 'Queue', namespace: 'shop', name });
  const asked: string[] = [];
  const watch = namespaceWatch({} as InformerHandle, (name) => {
    asked.push(name);
    return [key('jobs'), key('mail')];
  });

  it('judges the instances of a Namespace that appears or is relabelled again, and of no other change', () => {
    const prod = namespace({ env: 'prod' }, '2');
    expect(watch.map({ type: 'add', object: prod, inInitialList: true })).toEqual([key('jobs'), key('mail')]);
    expect(watch.map({ type: 'update', object: prod, old: namespace({ env: 'dev' }, '1') })).toEqual([
      key('jobs'),
      key('mail'),
    ]);
    expect(watch.map({ type: 'update', object: prod, old: namespace({ env: 'prod' }, '1') })).toEqual([]);
    expect(watch.map({ type: 'update', object: prod, old: prod })).toEqual([]);
    expect(watch.map({ type: 'delete', object: prod })).toEqual([]);
    expect(asked).toEqual(['shop', 'shop']);
  });
});

describe('InstanceSelection.namespaces', () => {
  it('offers the Namespaces informer only while a candidate of the CRD selects by Namespace labels', () => {
    const acquired: unknown[] = [];
    const handle = { release: () => undefined } as unknown as InformerHandle;
    const factory = {
      acquire: (request: unknown) => {
        acquired.push(request);
        return handle;
      },
    } as unknown as InformerFactory;
    const byNamespace: CRDRegistration = {
      ...registration('prod', 2),
      spec: { ...registration('prod', 2).spec, namespaceSelector: { matchLabels: { env: 'prod' } } },
    } as CRDRegistration;
    const registrations = [registration('canary', 1, { track: 'canary' })];
    const selection = new InstanceSelection({ factory, registrations: () => registrations });
    expect(selection.namespaces(CRD)).toBeUndefined();
    expect(acquired).toEqual([]);
    registrations.push(byNamespace);
    expect(selection.namespaces(CRD)).toBe(handle);
    expect(selection.namespaces(CRD)).toBe(handle);
    expect(acquired).toEqual([
      { resource: { group: '', version: 'v1', resource: 'namespaces', namespaced: false } },
    ]);
  });
});
