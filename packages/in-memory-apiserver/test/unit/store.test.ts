import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import { ObjectStore } from '../../src/store.ts';

const object = (name: string, namespace = 'ns'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, uid: `uid-${name}` },
});

describe('ObjectStore', () => {
  it('stamps one global resourceVersion per write and lists in key order', () => {
    const store = new ObjectStore(10);
    expect(store.write('configmaps', object('b')).metadata.resourceVersion).toBe('1');
    expect(store.write('secrets', object('x')).metadata.resourceVersion).toBe('2');
    expect(store.write('configmaps', object('a')).metadata.resourceVersion).toBe('3');
    expect(store.list('configmaps').map((item) => item.metadata.name)).toEqual(['a', 'b']);
    expect(store.resourceVersion).toBe(3);
  });

  it('gives DELETED events a new resourceVersion and forgets the uid', () => {
    const store = new ObjectStore(10);
    store.write('configmaps', object('a'));
    const deleted = store.remove('configmaps', object('a'));
    expect(deleted?.metadata.resourceVersion).toBe('2');
    expect(store.byUid('uid-a')).toBeUndefined();
    expect(store.remove('configmaps', object('a'))).toBeUndefined();
  });

  it('replays events after a resourceVersion and reports expiry outside the window', () => {
    const store = new ObjectStore(2);
    for (const name of ['a', 'b', 'c', 'd']) store.write('configmaps', object(name));
    expect(store.eventsSince(1)).toEqual({ expired: true, oldest: 3 });
    const since = store.eventsSince(2);
    expect(since.expired).toBe(false);
    expect(since.expired ? [] : since.events.map((event) => [event.type, event.resourceVersion])).toEqual([
      ['ADDED', 3],
      ['ADDED', 4],
    ]);
    expect(store.eventsSince(4)).toEqual({ expired: false, events: [] });
  });

  it('reports MODIFIED with the previous object', () => {
    const store = new ObjectStore(10);
    const seen: unknown[] = [];
    store.subscribe((event) => seen.push([event.type, event.previous?.metadata.resourceVersion]));
    store.write('configmaps', object('a'));
    store.write('configmaps', object('a'));
    expect(seen).toEqual([
      ['ADDED', undefined],
      ['MODIFIED', '1'],
    ]);
  });
});
