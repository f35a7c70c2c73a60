import { describe, expect, it } from 'vitest';
import { BUILTIN_TYPES } from '../../src/builtin-types.ts';
import { builtinSchema, builtinSchemaName, resolveSchema } from '../../src/openapi/builtin-schemas.ts';
import { kubeOpenApiData } from '../../src/openapi/kube-openapi-data.ts';

describe('built-in schemas (data/kube-openapi.json)', () => {
  it('were captured from the pinned release', () => {
    expect(kubeOpenApiData().kubernetesVersion).toBe('v1.34.4');
  });

  it('has a schema for every served built-in kind and version', () => {
    const missing = BUILTIN_TYPES.flatMap((type) =>
      type.versions
        .filter((version) => builtinSchema({ group: type.group, version, kind: type.kind }) === undefined)
        .map((version) => `${type.group}/${version}/${type.kind}`),
    );
    expect(missing).toEqual([]);
  });

  it('names a kind by its definition and answers undefined for kinds not served', () => {
    expect(builtinSchemaName({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe(
      'io.k8s.api.apps.v1.Deployment',
    );
    expect(builtinSchemaName({ group: '', version: 'v1', kind: 'Pod' })).toBeUndefined();
  });

  it('carries the patch metadata beside a reference, and resolves the reference', () => {
    const deployment = builtinSchema({ group: 'apps', version: 'v1', kind: 'Deployment' })!;
    const spec = resolveSchema(deployment.properties!.spec!);
    const template = resolveSchema(spec.properties!.template!);
    const podSpec = resolveSchema(template.properties!.spec!);
    const containers = podSpec.properties!.containers!;
    expect(containers['x-kubernetes-patch-merge-key']).toBe('name');
    expect(containers['x-kubernetes-patch-strategy']).toBe('merge');
    expect(containers['x-kubernetes-list-type']).toBe('map');
    expect(containers['x-kubernetes-list-map-keys']).toEqual(['name']);
    const container = resolveSchema(containers.items!);
    expect(container.required).toEqual(['name']);
    const service = builtinSchema({ group: '', version: 'v1', kind: 'Service' })!;
    const ports = resolveSchema(service.properties!.spec!).properties!.ports!;
    expect(ports['x-kubernetes-list-map-keys']).toEqual(['port', 'protocol']);
  });
});
