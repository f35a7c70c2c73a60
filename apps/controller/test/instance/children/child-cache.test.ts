/** The cache policy of children (docs/spec/children-and-status.md §5.2) and the drift check on a slim child. */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import {
  ChildCachePolicies,
  ChildCachePolicy,
  childFingerprint,
  isSlim,
} from '../../../src/instance/children/child-cache.ts';
import { isUpToDate, withDesiredHash } from '../../../src/instance/children/update-detection.ts';

const OWNER_UID = 'owner-uid';

const desired: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'greeter-main',
    namespace: 'shop',
    labels: { 'app.kubernetes.io/managed-by': 'scoby-controller' },
    ownerReferences: [
      { apiVersion: 'example.com/v1', kind: 'Greeter', name: 'main', uid: OWNER_UID, controller: true },
    ],
  },
  spec: {
    template: { spec: { containers: [{ name: 'adapter', env: [{ name: 'GREETING', value: 'hello' }] }] } },
  },
};

/** The child as the API server has it: the desired object, written, with what the server adds. */
function live(resourceVersion: string, changes: Partial<KubeObject> = {}): KubeObject {
  const written = withDesiredHash(desired);
  return {
    ...written,
    metadata: {
      ...written.metadata,
      uid: 'child-uid',
      resourceVersion,
      generation: 1,
      creationTimestamp: '2026-11-26T00:00:00Z',
      managedFields: [{ manager: 'scoby-controller', operation: 'Update' }],
    },
    spec: { ...(written.spec as object), replicas: 1 },
    status: { availableReplicas: 0 },
    ...changes,
  };
}

/** A proxy that fails the test on a read of any field the slim form dropped. */
function readGuard(object: KubeObject): KubeObject {
  const dropped = new Set(['spec', 'data', 'managedFields', 'creationTimestamp']);
  const guard = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(inner, key, receiver) {
        if (typeof key === 'string' && dropped.has(key)) throw new Error(`read of dropped field ${key}`);
        const value = Reflect.get(inner, key, receiver) as unknown;
        return value;
      },
    });
  // A frozen target's proxy must return its values unchanged, so the guard wraps unfrozen copies.
  return guard({ ...object, metadata: guard({ ...object.metadata }) });
}

describe('ChildCachePolicy', () => {
  const policy = () => new ChildCachePolicy(['status']);

  it('caches a child whole until it was found up to date, then slim and frozen', () => {
    const cache = policy();
    const first = cache.transform(live('1'));
    expect(isSlim(first)).toBe(false);
    expect(first.metadata).not.toHaveProperty('managedFields');
    let cached: KubeObject = first;
    cache.upToDate(first, (slim) => ((cached = slim), true));
    expect(isSlim(cached)).toBe(true);
    expect(Object.isFrozen(cached)).toBe(true);
    expect(Object.keys(cached).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'status']);
    expect(Object.keys(cached.metadata).sort()).toEqual([
      'annotations',
      'generation',
      'labels',
      'name',
      'namespace',
      'ownerReferences',
      'resourceVersion',
      'uid',
    ]);
    expect(cached.metadata.annotations).toEqual({
      'scoby.triggermesh.io/desired-hash':
        live('1').metadata.annotations?.['scoby.triggermesh.io/desired-hash'],
    });
  });

  it('keeps a new version slim when only its status changed, and whole when anything else did', () => {
    const cache = policy();
    let cached: KubeObject = cache.transform(live('1'));
    cache.upToDate(cached, (slim) => ((cached = slim), true));
    const statusOnly = cache.transform(live('2', { status: { availableReplicas: 1 } }), cached);
    expect(isSlim(statusOnly)).toBe(true);
    expect(statusOnly.status).toEqual({ availableReplicas: 1 });
    const edited = live('3', {
      spec: { template: { spec: { containers: [{ name: 'adapter', env: [] }] } } },
    });
    const afterEdit = cache.transform(edited, statusOnly);
    expect(isSlim(afterEdit)).toBe(false);
    expect(afterEdit.spec).toEqual(edited.spec);
  });

  it('slims the version a write returned when its watch event arrives after the answer', () => {
    const cache = policy();
    cache.upToDate(live('7'), () => false);
    expect(isSlim(cache.transform(live('7')))).toBe(true);
    // The note is used once: a later version of the child is judged on its own.
    expect(isSlim(cache.transform(live('8')))).toBe(false);
  });

  it('never slims a kind read whole', () => {
    const cache = new ChildCachePolicy(undefined);
    let cached: KubeObject = cache.transform(live('1'));
    cache.upToDate(cached, (slim) => ((cached = slim), true));
    expect(isSlim(cached)).toBe(false);
    expect(cached.spec).toBeDefined();
  });

  it('fingerprints everything but status and the metadata that changes on its own', () => {
    expect(childFingerprint(live('1'))).toBe(
      childFingerprint(live('2', { status: { availableReplicas: 3 } })),
    );
    expect(childFingerprint(live('1'))).not.toBe(childFingerprint(live('1', { spec: {} })));
  });
});

const formFactorOf = (apiVersion: string, kind: string, observedFields?: string[]) => ({
  managedKinds: [{ apiVersion, kind }],
  ...(observedFields ? { observedFields } : {}),
});

describe('ChildCachePolicies', () => {
  it('keeps the union of the declared fields, and a kind whole when one form factor declares none', () => {
    const policies = new ChildCachePolicies([
      formFactorOf('apps/v1', 'Deployment', ['status']),
      formFactorOf('apps/v1beta1', 'Deployment', ['extra']),
      formFactorOf('v1', 'Service', ['status']),
      formFactorOf('v1', 'Service'),
    ]);
    expect(policies.for('apps/v1', 'Deployment').slims).toBe(true);
    expect(policies.for('v1', 'Service').slims).toBe(false);
    expect(policies.for('apps/v1', 'Deployment')).toBe(policies.for('apps/v1beta1', 'Deployment'));
  });
});

describe('fields the controller reads besides the form factors', () => {
  it('keeps a dotted path of the spec and nothing else of it', () => {
    const policies = new ChildCachePolicies(
      [formFactorOf('apps/v1', 'Deployment', ['status'])],
      [{ apiVersion: 'apps/v1', kind: 'Deployment', fields: ['spec.selector'] }],
    );
    const cache = policies.for('apps/v1', 'Deployment');
    const object = live('1', {
      spec: { selector: { matchLabels: { app: 'a' } }, replicas: 1, template: { spec: { containers: [] } } },
    });
    let cached: KubeObject = cache.transform(object);
    cache.upToDate(cached, (slim) => ((cached = slim), true));
    expect(isSlim(cached)).toBe(true);
    expect(cached.spec).toEqual({ selector: { matchLabels: { app: 'a' } } });
    // Another kind is not given the Deployment's reads.
    expect(policies.for('v1', 'Service')).not.toBe(cache);
  });
});

describe('isUpToDate on a slim child', () => {
  it('decides from metadata and the fingerprint alone, never reading a dropped field', () => {
    const cache = new ChildCachePolicy(['status']);
    let cached: KubeObject = cache.transform(live('1'));
    cache.upToDate(cached, (slim) => ((cached = slim), true));
    expect(isUpToDate(readGuard(cached), desired, OWNER_UID)).toBe(true);
    // Another desired state (another hash) is not up to date, still without reading the spec.
    const changed = { ...desired, spec: { template: { spec: { containers: [{ name: 'adapter' }] } } } };
    expect(isUpToDate(readGuard(cached), changed, OWNER_UID)).toBe(false);
  });
});
