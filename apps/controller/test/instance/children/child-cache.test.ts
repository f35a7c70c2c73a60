/** The cache policy of children (docs/spec/children-and-status.md §5.2) and the drift check on a slim child. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

describe('what a slim child holds', () => {
  /** The live heap after full collections (gc exposed on demand, as --expose-gc would). */
  function liveHeap(): number {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  }

  /**
   * Slim children, each of its own version and parsed from JSON as a watch delivers it; `text`
   * gives the strings of each one's condition: the same for all, or each child's own.
   */
  function slimChildren(count: number, text: (base: string, index: number) => string): KubeObject[] {
    return Array.from({ length: count }, (_, index) => {
      const child = live(String(index + 1), {
        status: {
          observedGeneration: 1,
          conditions: [
            {
              type: text('Available', index),
              status: text('True', index),
              lastUpdateTime: text('2026-11-26T19:00:05Z', index),
              lastTransitionTime: text('2026-11-26T19:00:05Z', index),
              reason: text('MinimumReplicasAvailable', index),
              message: text('Deployment has minimum availability.', index),
            },
          ],
        },
      });
      const parsed = JSON.parse(
        JSON.stringify({ ...child, metadata: { ...child.metadata, uid: `uid-${index}` } }),
      ) as KubeObject;
      const policy = new ChildCachePolicy(['status']);
      let cached = policy.transform(parsed);
      policy.upToDate(cached, (smaller) => ((cached = smaller), true));
      expect(isSlim(cached)).toBe(true);
      return cached;
    });
  }

  function heapPerChild(build: () => unknown[]): number {
    const before = liveHeap();
    const held = build();
    const bytes = (liveHeap() - before) / held.length;
    expect(held.length).toBeGreaterThan(0);
    return bytes;
  }

  it("shares its strings with the other children's: a text many hold costs about once", () => {
    const count = 2_000;
    // Three rounds of both, their medians compared: one measure moved by what else the worker
    // allocated meanwhile (a loaded run measured 90 bytes once) does not decide.
    const sameText: number[] = [];
    const ownText: number[] = [];
    for (let round = 0; round < 3; round++) {
      sameText.push(heapPerChild(() => slimChildren(count, (base) => base)));
      // Each child's own strings of the same lengths: what every child cost before they were shared.
      ownText.push(
        heapPerChild(() =>
          slimChildren(count, (base, index) =>
            `${base.slice(0, Math.max(0, base.length - 4))}${index % 10_000}`.padEnd(base.length, '-'),
          ),
        ),
      );
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    // Six strings of 4 to 36 characters: about 140 bytes with their headers.
    expect(median(ownText) - median(sameText)).toBeGreaterThan(100);
  }, 120_000);
});
