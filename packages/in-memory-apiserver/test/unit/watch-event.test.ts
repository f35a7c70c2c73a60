import type { KubeObject } from '@scoby/kube-objects';
import { describe, expect, it } from 'vitest';
import type { StoreEvent } from '../../src/store.ts';
import { eventFor } from '../../src/watch.ts';

const withLabel = (app: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', labels: { app } },
});
const web = (object: KubeObject): boolean => object.metadata.labels?.app === 'web';
const change = (type: StoreEvent['type'], object: KubeObject, previous?: KubeObject): StoreEvent => ({
  type,
  resourceVersion: 1,
  key: 'configmaps',
  object,
  ...(previous ? { previous } : {}),
});

describe('eventFor', () => {
  it.each([
    ['ADDED into the selection', change('ADDED', withLabel('web')), 'ADDED'],
    ['ADDED outside the selection', change('ADDED', withLabel('db')), undefined],
    ['MODIFIED within the selection', change('MODIFIED', withLabel('web'), withLabel('web')), 'MODIFIED'],
    ['MODIFIED into the selection', change('MODIFIED', withLabel('web'), withLabel('db')), 'ADDED'],
    ['MODIFIED out of the selection', change('MODIFIED', withLabel('db'), withLabel('web')), 'DELETED'],
    ['MODIFIED outside the selection', change('MODIFIED', withLabel('db'), withLabel('db')), undefined],
    ['DELETED from the selection', change('DELETED', withLabel('web'), withLabel('web')), 'DELETED'],
    ['DELETED outside the selection', change('DELETED', withLabel('db'), withLabel('db')), undefined],
  ])('%s', (_title, event, expected) => {
    expect(eventFor(event, web)?.type).toBe(expected);
  });
});
