/**
 * The test cluster's write verbs, against the in-memory API server: a controller writes the objects
 * tests edit at any time, so an edit or an apply that meets a 409 starts again from a fresh read.
 */
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { KubeObject } from '@scoby/kube-objects';
import { DynamicClient } from '@scoby/controller-runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clusterVerbs, type ClusterVerbs } from './cluster.ts';

let server: InMemoryApiServer;
let cluster: ClusterVerbs;

const CONFIG_MAP = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' };
const configMap = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'settings', namespace: 'default' },
  data,
});

const puts = () =>
  server.requestLog
    .entries()
    .filter((entry) => entry.method === 'PUT')
    .map(({ code }) => code);

beforeEach(async () => {
  server = await startApiServer();
  cluster = clusterVerbs(new DynamicClient(server.kubeConfig()));
  await cluster.apply(configMap({ round: '1' }));
  server.requestLog.clear();
});

afterEach(async () => {
  await cluster.stop();
  await server.stop();
});

describe('the test cluster’s write verbs', () => {
  it('edit: a write by someone else between the read and the PUT is kept, and the edit made again on top', async () => {
    let calls = 0;
    const edited = await cluster.edit(CONFIG_MAP, async (object) => {
      calls += 1;
      if (calls === 1) {
        // Someone else's write lands after this read: the first PUT is answered 409.
        await cluster.update({ ...object, metadata: { ...object.metadata, labels: { by: 'controller' } } });
      }
      return { ...object, data: { round: '2' } };
    });
    expect(calls).toBe(2);
    expect(puts()).toEqual([200, 409, 200]);
    expect({ labels: edited.metadata.labels, data: edited.data }).toEqual({
      labels: { by: 'controller' },
      data: { round: '2' },
    });
  });

  it('apply: the replacement of an existing object is written again after a 409', async () => {
    server.faults.failNext({ verb: 'update', resource: 'configmaps' }, { code: 409 });
    const applied = await cluster.apply(configMap({ round: '3' }));
    expect(applied.data).toEqual({ round: '3' });
    expect(puts()).toEqual([409, 200]);
  });

  it('edit: gives up after ten conflicts, with the last one', async () => {
    server.faults.failNext({ verb: 'update', resource: 'configmaps' }, { code: 409, count: 10 });
    await expect(cluster.edit(CONFIG_MAP, () => undefined)).rejects.toMatchObject({ code: 409 });
    expect(puts()).toEqual(Array.from({ length: 10 }, () => 409));
  });
});
