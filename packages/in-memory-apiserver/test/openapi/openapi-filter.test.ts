import { describe, expect, it } from 'vitest';
import { filterV3, isServedPath, type ServedResource } from '../../scripts/openapi-filter.ts';

const served: ServedResource[] = [
  { group: '', version: 'v1', plural: 'configmaps', subresources: [] },
  { group: '', version: 'v1', plural: 'namespaces', subresources: ['status'] },
  { group: 'apps', version: 'v1', plural: 'deployments', subresources: ['status', 'scale'] },
];

describe('capture-openapi filter', () => {
  it('keeps the paths of served resources and subresources and the discovery of their groups', () => {
    const kept = [
      '/api/v1/',
      '/api/v1/configmaps',
      '/api/v1/namespaces/{namespace}/configmaps/{name}',
      '/api/v1/namespaces/{name}',
      '/api/v1/namespaces/{name}/status',
      '/apis/apps/',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
      '/version/',
    ];
    const dropped = [
      '/api/v1/namespaces/{name}/finalize',
      '/api/v1/watch/namespaces/{namespace}/configmaps',
      '/api/v1/namespaces/{namespace}/pods',
      '/apis/apps/v1/namespaces/{namespace}/replicasets/{name}/scale',
      '/apis/batch/',
      '/logs/',
    ];
    expect(kept.filter((path) => !isServedPath(path, served))).toEqual([]);
    expect(dropped.filter((path) => isServedPath(path, served))).toEqual([]);
  });

  it('keeps the schemas the kept paths reach, transitively, and no others', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const document = {
      paths: {
        '/api/v1/configmaps': { get: { responses: { 200: { schema: ref('ConfigMapList') } } } },
        '/api/v1/pods': { get: { responses: { 200: { schema: ref('PodList') } } } },
      },
      components: {
        schemas: {
          ConfigMapList: { properties: { items: { items: { allOf: [ref('ConfigMap')] } } } },
          ConfigMap: { properties: { metadata: ref('ObjectMeta') } },
          ObjectMeta: {},
          PodList: { properties: { items: { items: ref('Pod') } } },
          Pod: {},
        },
      },
    };
    const filtered = filterV3(document, served) as { components: { schemas: object }; paths: object };
    expect(Object.keys(filtered.paths)).toEqual(['/api/v1/configmaps']);
    expect(Object.keys(filtered.components.schemas)).toEqual(['ConfigMap', 'ConfigMapList', 'ObjectMeta']);
  });
});
