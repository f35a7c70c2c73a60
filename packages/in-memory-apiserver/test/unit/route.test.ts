import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../src/http/route.ts';

describe('parseRoute', () => {
  it.each([
    ['/version', { kind: 'version' }],
    ['/api', { kind: 'api' }],
    ['/api/v1', { kind: 'resources', group: '', version: 'v1' }],
    ['/apis', { kind: 'apis' }],
    ['/apis/apps', { kind: 'group', group: 'apps' }],
    ['/apis/apps/v1', { kind: 'resources', group: 'apps', version: 'v1' }],
    [
      '/api/v1/namespaces',
      {
        kind: 'resource',
        group: '',
        version: 'v1',
        plural: 'namespaces',
        namespace: undefined,
        name: undefined,
        subresource: undefined,
      },
    ],
    [
      '/api/v1/namespaces/a',
      {
        kind: 'resource',
        group: '',
        version: 'v1',
        plural: 'namespaces',
        namespace: undefined,
        name: 'a',
        subresource: undefined,
      },
    ],
    [
      '/api/v1/namespaces/a/status',
      {
        kind: 'resource',
        group: '',
        version: 'v1',
        plural: 'namespaces',
        namespace: undefined,
        name: 'a',
        subresource: 'status',
      },
    ],
    [
      '/api/v1/namespaces/a/configmaps',
      {
        kind: 'resource',
        group: '',
        version: 'v1',
        plural: 'configmaps',
        namespace: 'a',
        name: undefined,
        subresource: undefined,
      },
    ],
    [
      '/apis/apps/v1/namespaces/a/deployments/d/status',
      {
        kind: 'resource',
        group: 'apps',
        version: 'v1',
        plural: 'deployments',
        namespace: 'a',
        name: 'd',
        subresource: 'status',
      },
    ],
    [
      '/apis/apps/v1/deployments',
      {
        kind: 'resource',
        group: 'apps',
        version: 'v1',
        plural: 'deployments',
        namespace: undefined,
        name: undefined,
        subresource: undefined,
      },
    ],
    ['/apis/apps/v1/namespaces/a/deployments/d/status/extra', { kind: 'unknown' }],
    ['/metrics', { kind: 'unknown' }],
  ])('%s', (path, expected) => {
    expect(parseRoute(path)).toEqual(expected);
  });
});
