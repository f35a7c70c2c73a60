import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { objectKey, ObjectStore } from '../../src/informer/object-store.ts';

function cm(namespace: string | undefined, name: string, resourceVersion: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, resourceVersion } };
}

describe('objectKey', () => {
  it('is namespace/name, or name alone for cluster-scoped objects', () => {
    expect([objectKey('shop', 'orders'), objectKey(undefined, 'mailer'), objectKey('', 'mailer')]).toEqual([
      'shop/orders',
      'mailer',
      'mailer',
    ]);
  });
});

describe('ObjectStore', () => {
  it('reports add, update, and nothing for the same resourceVersion', () => {
    const store = new ObjectStore<KubeObject>();
    const v1 = cm('shop', 'a', '1');
    const v2 = cm('shop', 'a', '2');
    expect(store.upsert(v1)).toEqual({ type: 'add', object: v1 });
    expect(store.upsert(cm('shop', 'a', '1'))).toBeUndefined();
    expect(store.upsert(v2)).toEqual({ type: 'update', object: v2, old: v1 });
    expect(store.get('shop', 'a')).toBe(v2);
    expect(store.size).toBe(1);
  });

  it('reports a delete once', () => {
    const store = new ObjectStore<KubeObject>();
    store.upsert(cm('shop', 'a', '1'));
    const gone = cm('shop', 'a', '3');
    expect(store.remove(gone)).toEqual({ type: 'delete', object: gone });
    expect(store.remove(gone)).toBeUndefined();
    expect(store.get('shop', 'a')).toBeUndefined();
  });

  it('replace makes the store hold exactly the listed objects, with the events that amounts to', () => {
    const store = new ObjectStore<KubeObject>();
    const kept = cm('shop', 'kept', '1');
    const changedOld = cm('shop', 'changed', '1');
    const removed = cm('shop', 'removed', '1');
    for (const object of [kept, changedOld, removed]) store.upsert(object);
    const changedNew = cm('shop', 'changed', '5');
    const added = cm('shop', 'added', '6');
    expect(store.replace([cm('shop', 'kept', '1'), changedNew, added])).toEqual([
      { type: 'delete', object: removed },
      { type: 'update', object: changedNew, old: changedOld },
      { type: 'add', object: added },
    ]);
    expect(store.list()).toEqual([kept, changedNew, added]);
  });

  it('replace within a namespace leaves other namespaces alone', () => {
    const store = new ObjectStore<KubeObject>();
    const shop = cm('shop', 'a', '1');
    const infra = cm('infra', 'a', '1');
    store.upsert(shop);
    store.upsert(infra);
    expect(store.replace([], 'shop')).toEqual([{ type: 'delete', object: shop }]);
    expect(store.list()).toEqual([infra]);
  });
});
