/**
 * Twenty raw requests sent to both servers as fixed cases: the four client mistakes the in-memory server
 * once answered otherwise than kube-apiserver (a resourceVersion on create, an invalid env name, Secret
 * data that is not base64, a DELETE body without a length) among valid requests, with the answers
 * kube-apiserver v1.34.4 gives.
 */
import { CURRENT_RV, kindOf, STALE_RV, type Resource, type Step } from './model.ts';
import { objectWith, updateBody, validObject } from './objects.ts';

function post(resource: Resource, body: unknown, mistake: Step['mistake'] = 'none', name = 'a'): Step {
  return {
    verb: 'create',
    resource,
    mistake,
    name,
    method: 'POST',
    path: resource,
    query: {},
    contentType: 'application/json',
    body: JSON.stringify(body),
  };
}

const WRONG_UID = {
  apiVersion: 'v1',
  kind: 'DeleteOptions',
  preconditions: { uid: '00000000-0000-0000-0000-000000000000' },
};

export const FIXED_CASES: { step: Step; code: number }[] = [
  { step: post('configmaps', validObject('configmaps', 'a', 0)), code: 201 },
  {
    step: {
      verb: 'get',
      resource: 'configmaps',
      mistake: 'none',
      name: 'a',
      method: 'GET',
      path: 'configmaps/a',
      query: {},
    },
    code: 200,
  },
  {
    step: post(
      'configmaps',
      objectWith('configmaps', 'b', 1, 'resource-version-on-create'),
      'resource-version-on-create',
      'b',
    ),
    code: 500,
  },
  {
    step: post(
      'configmaps',
      objectWith('configmaps', 'a', 1, 'resource-version-on-create'),
      'resource-version-on-create',
    ),
    code: 500,
  },
  { step: post('deployments', validObject('deployments', 'a', 0)), code: 201 },
  {
    step: post('deployments', objectWith('deployments', 'b', 0, 'invalid-value'), 'invalid-value', 'b'),
    code: 422,
  },
  { step: post('secrets', validObject('secrets', 'a', 0)), code: 201 },
  { step: post('secrets', objectWith('secrets', 'b', 0, 'invalid-value'), 'invalid-value', 'b'), code: 400 },
  {
    step: {
      verb: 'list',
      resource: 'configmaps',
      mistake: 'label-selector',
      name: 'a',
      method: 'GET',
      path: 'configmaps',
      query: { labelSelector: 'tier=front' },
    },
    code: 200,
  },
  {
    step: {
      verb: 'list',
      resource: 'secrets',
      mistake: 'field-selector',
      name: 'a',
      method: 'GET',
      path: 'secrets',
      query: { fieldSelector: 'metadata.name=a' },
    },
    code: 200,
  },
  {
    step: {
      verb: 'patch-merge',
      resource: 'configmaps',
      mistake: 'none',
      name: 'a',
      method: 'PATCH',
      path: 'configmaps/a',
      query: {},
      contentType: 'application/merge-patch+json',
      body: JSON.stringify({ data: { other: 'x' } }),
    },
    code: 200,
  },
  {
    step: {
      verb: 'patch-json',
      resource: 'configmaps',
      mistake: 'none',
      name: 'a',
      method: 'PATCH',
      path: 'configmaps/a',
      query: {},
      contentType: 'application/json-patch+json',
      body: JSON.stringify([{ op: 'add', path: '/metadata/labels/tier', value: 'back' }]),
    },
    code: 200,
  },
  {
    step: {
      verb: 'patch-apply',
      resource: 'configmaps',
      mistake: 'none',
      name: 'c',
      method: 'PATCH',
      path: 'configmaps/c',
      query: { fieldManager: 'alice' },
      contentType: 'application/apply-patch+yaml',
      body: JSON.stringify({ ...kindOf('configmaps'), metadata: { name: 'c' }, data: { applied: 'yes' } }),
    },
    code: 201,
  },
  {
    step: {
      verb: 'patch-strategic',
      resource: 'deployments',
      mistake: 'none',
      name: 'a',
      method: 'PATCH',
      path: 'deployments/a',
      query: {},
      contentType: 'application/strategic-merge-patch+json',
      body: JSON.stringify({
        spec: {
          template: { spec: { containers: [{ name: 'main', env: [{ name: 'ADDED', value: 'y' }] }] } },
        },
      }),
    },
    code: 200,
  },
  {
    step: {
      verb: 'get-scale',
      resource: 'deployments',
      mistake: 'none',
      name: 'a',
      method: 'GET',
      path: 'deployments/a/scale',
      query: {},
    },
    code: 200,
  },
  {
    step: {
      verb: 'patch-scale',
      resource: 'deployments',
      mistake: 'none',
      name: 'a',
      method: 'PATCH',
      path: 'deployments/a/scale',
      query: {},
      contentType: 'application/merge-patch+json',
      body: JSON.stringify({ spec: { replicas: 2 } }),
    },
    code: 200,
  },
  {
    step: {
      verb: 'update',
      resource: 'configmaps',
      mistake: 'none',
      name: 'a',
      method: 'PUT',
      path: 'configmaps/a',
      query: {},
      contentType: 'application/json',
      body: JSON.stringify(updateBody('configmaps', 'a', 2, 'none')).replace('$CURRENT_RV', CURRENT_RV),
    },
    code: 200,
  },
  {
    step: {
      verb: 'update',
      resource: 'configmaps',
      mistake: 'stale-resource-version',
      name: 'a',
      method: 'PUT',
      path: 'configmaps/a',
      query: {},
      contentType: 'application/json',
      body: JSON.stringify(updateBody('configmaps', 'a', 3, 'stale-resource-version')).replace(
        '$STALE_RV',
        STALE_RV,
      ),
    },
    code: 409,
  },
  {
    step: {
      verb: 'delete',
      resource: 'configmaps',
      mistake: 'uid-precondition',
      name: 'a',
      method: 'DELETE',
      path: 'configmaps/a',
      query: {},
      contentType: 'application/json',
      body: JSON.stringify(WRONG_UID),
      lengthUnknown: true,
    },
    code: 200,
  },
  {
    step: {
      verb: 'delete',
      resource: 'configmaps',
      mistake: 'uid-precondition',
      name: 'c',
      method: 'DELETE',
      path: 'configmaps/c',
      query: {},
      contentType: 'application/json',
      body: JSON.stringify(WRONG_UID),
    },
    code: 409,
  },
];
