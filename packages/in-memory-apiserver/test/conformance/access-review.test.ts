/**
 * SelfSubjectAccessReview: a client asks whether it may do something. The conformance suite's user is
 * an administrator, so both servers allow; only the in-memory server can be told to deny, for tests of
 * clients that check their permissions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, inMemoryOnly, rawRequest, type Target } from './harness.ts';

let target: Target;

beforeAll(async () => {
  target = await connect();
});
afterAll(() => target?.stop());

function review(attributes: Record<string, string>) {
  return rawRequest(target, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    contentType: 'application/json',
    text: JSON.stringify({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: attributes },
    }),
  });
}

const PATCH_STATUS = { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'status' };

describe('SelfSubjectAccessReview', () => {
  it('answers 201 with status.allowed and the spec asked about', async () => {
    const answer = await review({ ...PATCH_STATUS, namespace: 'shop' });
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      spec: { resourceAttributes: { ...PATCH_STATUS, namespace: 'shop' } },
      status: { allowed: true },
    });
  });

  it('in memory: a denial answers allowed: false for the attributes it matches, until it is lifted', async (context) => {
    const server = inMemoryOnly(target, context, 'denials are an in-memory test feature');
    const lift = server.authorization.deny({ verb: 'patch', resource: 'deployments', subresource: 'status' });
    expect((await review(PATCH_STATUS)).json).toMatchObject({ status: { allowed: false } });
    expect((await review({ ...PATCH_STATUS, namespace: 'shop' })).json).toMatchObject({
      status: { allowed: false },
    });
    expect((await review({ ...PATCH_STATUS, subresource: '' })).json).toMatchObject({
      status: { allowed: true },
    });
    lift();
    expect((await review(PATCH_STATUS)).json).toMatchObject({ status: { allowed: true } });
  });

  it("in memory: a denial refuses the requests it matches with kube-apiserver's 403, and no other", async (context) => {
    const server = inMemoryOnly(target, context, 'denials are an in-memory test feature');
    const lift = server.authorization.deny({ verb: 'patch', resource: 'deployments', subresource: 'status' });
    const patch = (path: string) =>
      rawRequest(target, 'PATCH', path, {
        contentType: 'application/merge-patch+json',
        text: '{"status":{}}',
      });
    const refused = await patch('/apis/apps/v1/namespaces/default/deployments/web/status');
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'deployments.apps "web" is forbidden: User "admin" cannot patch resource "deployments/status" ' +
        'in API group "apps" in the namespace "default"',
      reason: 'Forbidden',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
      code: 403,
    });
    // The same verb on the object itself is another question: allowed (here: not found).
    expect((await patch('/apis/apps/v1/namespaces/default/deployments/web')).status).toBe(404);
    lift();
    expect((await patch('/apis/apps/v1/namespaces/default/deployments/web/status')).status).toBe(404);
  });
});
