import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { generatedFiles } from '../src/generated-files.ts';
import { REPOSITORY_ROOT } from '../src/paths.ts';
import { readInstallSources } from '../src/sources.ts';

const REGENERATE = 'stale: run `npm run generate -w @scoby/install`';
const sources = readInstallSources();
const objectsOf = (text: string) =>
  parseAllDocuments(text)
    .map((document) => document.toJS() as Record<string, unknown> | null)
    .filter((object) => object !== null);

describe('committed install artefacts are generated from deploy/ and crds/', () => {
  const files = generatedFiles(sources);

  it('generates the chart parts and the release manifest', () => {
    expect(Object.keys(files).sort()).toEqual([
      'deploy/helm/scoby/Chart.yaml',
      'deploy/helm/scoby/crds/scoby.triggermesh.io_crdregistrations.yaml',
      'deploy/helm/scoby/templates/deployment.yaml',
      'deploy/helm/scoby/templates/rbac.yaml',
      'deploy/helm/scoby/values.yaml',
      'deploy/release/scoby.yaml',
    ]);
  });

  for (const [path, text] of Object.entries(files)) {
    it(`${path} is up to date`, () => {
      expect(readFileSync(join(REPOSITORY_ROOT, path), 'utf8'), REGENERATE).toBe(text);
    });
  }
});

describe('release manifest', () => {
  it('holds the CRD, then the namespace, the RBAC and the Deployment, as written in their sources', () => {
    const manifest = objectsOf(generatedFiles(sources)['deploy/release/scoby.yaml']!);
    expect(manifest).toEqual([
      ...objectsOf(sources.crd),
      ...objectsOf(sources.namespace),
      ...objectsOf(sources.rbac),
      ...objectsOf(sources.deployment),
    ]);
    expect(manifest.map((object) => object['kind'])).toEqual([
      'CustomResourceDefinition',
      'Namespace',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRole',
      'ClusterRole',
      'ClusterRoleBinding',
      'ClusterRoleBinding',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'Deployment',
    ]);
  });
});

describe('aggregated ClusterRoles', () => {
  it('carry no rules, so that server-side apply leaves them to clusterrole-aggregation-controller', () => {
    const aggregated = objectsOf(sources.rbac).filter((object) => 'aggregationRule' in object);
    expect(aggregated.map((object) => (object['metadata'] as { name: string }).name)).toEqual([
      'scoby-controller-crdregistrations',
      'scoby-addressable-resolver',
    ]);
    for (const role of aggregated)
      expect(Object.keys(role).sort()).toEqual(['aggregationRule', 'apiVersion', 'kind', 'metadata']);
  });
});
