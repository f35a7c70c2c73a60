/**
 * The reviewer against the in-memory API server, whose SelfSubjectAccessReviews allow everything a
 * test does not deny; its request log counts the questions asked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApiServer, type InMemoryApiServer } from '@scoby/in-memory-apiserver';
import type { ResourceNeed } from '../../../src/registration/access/access-needs.ts';
import { AccessReviewer } from '../../../src/registration/access/access-reviewer.ts';
import { DynamicClient } from '@scoby/controller-runtime';

let server: InMemoryApiServer;
let client: DynamicClient;
let clock = 0;

beforeAll(async () => {
  server = await startApiServer();
  client = new DynamicClient(server.kubeConfig());
});
afterAll(async () => {
  client.close();
  await server.stop();
});
beforeEach(() => {
  server.authorization.reset();
  server.requestLog.clear();
});

const KUARDS: ResourceNeed = {
  group: 'extensions.triggermesh.io',
  resource: 'kuards',
  verbs: ['list', 'patch'],
  grantor: 'registered',
};
const STATUS: ResourceNeed = { ...KUARDS, subresource: 'status', verbs: ['patch'] };

function questions(): unknown[] {
  return server.requestLog
    .entries()
    .filter((entry) => entry.path === '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')
    .map((entry) => (entry.body as { spec: unknown }).spec);
}

function reviewer(namespaces?: string[], grantedForMs = 1000) {
  return new AccessReviewer(client, { namespaces, now: () => clock, grantedForMs, refusedForMs: 100 });
}

describe('AccessReviewer', () => {
  it('asks once per verb, and answers again from what it was told until a grant is older than grantedForMs', async () => {
    const access = reviewer();
    expect(await access.denials([KUARDS, STATUS])).toEqual([]);
    expect(questions()).toEqual([
      { resourceAttributes: { verb: 'list', group: 'extensions.triggermesh.io', resource: 'kuards' } },
      { resourceAttributes: { verb: 'patch', group: 'extensions.triggermesh.io', resource: 'kuards' } },
      {
        resourceAttributes: {
          verb: 'patch',
          group: 'extensions.triggermesh.io',
          resource: 'kuards',
          subresource: 'status',
        },
      },
    ]);
    clock += 999;
    expect(await access.denials([KUARDS, STATUS])).toEqual([]);
    expect(questions()).toHaveLength(3);
    clock += 1;
    expect(await access.denials([STATUS])).toEqual([]);
    expect(questions()).toHaveLength(4);
  });

  it('asks about a cluster-scoped resource once, without a namespace, whatever the working namespaces', async () => {
    const namespaces: ResourceNeed = {
      group: '',
      resource: 'namespaces',
      verbs: ['list'],
      grantor: 'scoby-controller',
      clusterScoped: true,
    };
    expect(await reviewer(['shop', 'dev']).denials([namespaces])).toEqual([]);
    expect(questions()).toEqual([
      { resourceAttributes: { verb: 'list', group: '', resource: 'namespaces' } },
    ]);
  });

  it('reports each refused verb per working namespace, and asks again once a refusal is older than refusedForMs', async () => {
    server.authorization.deny({ verb: 'patch', subresource: 'status', namespace: 'shop' });
    const access = reviewer(['shop', 'dev']);
    expect(await access.denials([KUARDS, STATUS])).toEqual([
      { need: STATUS, verb: 'patch', namespace: 'shop' },
    ]);
    expect(questions()).toHaveLength(6);
    server.authorization.reset();
    clock += 99;
    expect(await access.denials([STATUS])).toEqual([{ need: STATUS, verb: 'patch', namespace: 'shop' }]);
    clock += 1;
    expect(await access.denials([STATUS])).toEqual([]);
    expect(questions()).toHaveLength(7);
  });

  it('forgets every answer after a 403, at most once a minute', async () => {
    const access = reviewer(undefined, 600_000);
    await access.denials([STATUS]);
    expect(access.forgetAfterForbidden()).toBe(true);
    await access.denials([STATUS]);
    expect(questions()).toHaveLength(2);
    clock += 59_999;
    expect(access.forgetAfterForbidden()).toBe(false);
    await access.denials([STATUS]);
    expect(questions()).toHaveLength(2);
    clock += 1;
    expect(access.forgetAfterForbidden()).toBe(true);
    await access.denials([STATUS]);
    expect(questions()).toHaveLength(3);
  });
});
