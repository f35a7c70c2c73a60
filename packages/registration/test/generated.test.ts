import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MANIFEST_FILE, SHAPE_VALIDATOR_FILE, TYPES_FILE } from '../scripts/files.ts';
import { renderShapeValidator } from '../scripts/render-shape-validator.ts';
import { renderTypes } from '../scripts/render-types.ts';
import { crdManifest, crdManifestYaml } from '../src/manifest.ts';
import { SCHEMA } from '../src/schema.ts';
import type { SchemaNode } from '../src/schema-node.ts';
import { toJsonSchema } from '../src/schema-views.ts';

const REGENERATE = 'stale: run `npm run generate -w @scoby/registration`';

/** Every node of a schema with its path, e.g. ".spec.workload". */
function nodes(node: SchemaNode, path = ''): [string, SchemaNode][] {
  return [
    [path, node],
    ...Object.entries(node.properties ?? {}).flatMap(([key, child]) => nodes(child, `${path}.${key}`)),
    ...(node.items ? nodes(node.items, `${path}[]`) : []),
    ...(node.additionalProperties ? nodes(node.additionalProperties, `${path}{}`) : []),
  ];
}

const schemaAt = (path: string): SchemaNode | undefined => new Map(nodes(SCHEMA)).get(path);

describe('committed artefacts are generated from SCHEMA', () => {
  it('crds/scoby.triggermesh.io_crdregistrations.yaml is up to date', () => {
    expect(readFileSync(MANIFEST_FILE, 'utf8'), REGENERATE).toBe(crdManifestYaml());
  });

  it('src/types.generated.ts is up to date', async () => {
    expect(readFileSync(TYPES_FILE, 'utf8'), REGENERATE).toBe(await renderTypes());
  });

  it('src/validation/shape-validator.generated.ts is up to date', () => {
    expect(readFileSync(SHAPE_VALIDATOR_FILE, 'utf8'), REGENERATE).toBe(renderShapeValidator());
  });
});

describe('CRD manifest (docs/spec/registration.md §1)', () => {
  const manifest = crdManifest();

  it('parses back to crdManifest() and uses no YAML aliases', () => {
    const text = crdManifestYaml();
    expect(parse(text)).toEqual(manifest);
    expect(text).not.toMatch(/[&*][A-Za-z]\w*\s*$/m);
  });

  it('declares the resource identity', () => {
    const { schema: _schema, ...version } =
      (manifest.spec as { versions: Record<string, unknown>[] }).versions[0] ?? {};
    expect({ ...manifest, spec: { ...(manifest.spec as object), versions: [version] } }).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: {
        name: 'crdregistrations.scoby.triggermesh.io',
        labels: { 'triggermesh.io/crd-install': 'true' },
      },
      spec: {
        group: 'scoby.triggermesh.io',
        scope: 'Cluster',
        names: {
          kind: 'CRDRegistration',
          listKind: 'CRDRegistrationList',
          plural: 'crdregistrations',
          singular: 'crdregistration',
          shortNames: ['crdreg'],
        },
        versions: [
          {
            name: 'v1alpha1',
            served: true,
            storage: true,
            subresources: { status: {} },
            additionalPrinterColumns: [
              { name: 'CRD', type: 'string', jsonPath: '.spec.crd' },
              { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
          },
        ],
      },
    });
  });

  it('embeds SCHEMA as openAPIV3Schema', () => {
    const [version] = (manifest.spec as { versions: { schema: { openAPIV3Schema: unknown } }[] }).versions;
    expect(version?.schema.openAPIV3Schema).toEqual(SCHEMA);
  });

  it('is structural: every node has a type except int-or-string nodes', () => {
    const untyped = nodes(SCHEMA)
      .filter(([, node]) => node.type === undefined && node['x-kubernetes-int-or-string'] !== true)
      .map(([path]) => path);
    expect(untyped).toEqual([]);
    const mixed = nodes(SCHEMA)
      .filter(([, node]) => node.properties !== undefined && node.additionalProperties !== undefined)
      .map(([path]) => path);
    expect(mixed).toEqual([]);
  });

  it('requires spec, crd, workload and fromImage.repo', () => {
    expect(SCHEMA.required).toEqual(['spec']);
    expect(schemaAt('.spec')?.required).toEqual(['crd', 'workload']);
    expect(schemaAt('.spec.workload')?.required).toEqual(['fromImage']);
    expect(schemaAt('.spec.workload.fromImage')?.required).toEqual(['repo']);
  });

  it('keeps the legacy aliases so the API server does not prune them', () => {
    expect(schemaAt('.spec.workload.parameterConfiguration.fromSpec.toEnv[].defaultValue')).toEqual({
      type: 'string',
      description: 'Legacy alias of default.value; setting both is a validation error.',
    });
    const valueFrom = '.spec.workload.parameterConfiguration.add.toEnv[].valueFrom';
    const { description: aliasDescription, ...alias } = schemaAt(`${valueFrom}.fieldRef`) ?? {};
    const { description: _fieldDescription, ...field } = schemaAt(`${valueFrom}.field`) ?? {};
    expect(alias).toEqual(field);
    expect(aliasDescription).toBe('Legacy alias of field; setting both is a validation error.');
  });

  it('declares the built-in form factors and preserves plugin keys', () => {
    const formFactor = schemaAt('.spec.workload.formFactor');
    expect(formFactor?.['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(Object.keys(formFactor?.properties ?? {})).toEqual(['deployment', 'knativeService']);
    expect(schemaAt('.spec.workload.formFactor.deployment')?.nullable).toBe(true);
    expect(schemaAt('.spec.workload.formFactor.knativeService')?.nullable).toBe(true);
  });

  it('describes every node, so kubectl explain and the reference say what each field is for', () => {
    // The root metadata schema may hold nothing but its type (kube-apiserver refuses the CRD otherwise).
    const undescribed = nodes(SCHEMA)
      .filter(([path, node]) => path !== '.metadata' && !node.description?.trim())
      .map(([path]) => path || '(root)');
    expect(undescribed).toEqual([]);
  });

  it('declares hook.version as int-or-string', () => {
    expect(schemaAt('.spec.hook.version')).toEqual({
      'x-kubernetes-int-or-string': true,
      description: 'Hooks API version: "v1", "1" or 1.',
      enum: ['v1', '1', 1],
    });
  });

  it('declares the closed sets of docs/spec/registration.md §4 as enums, so the API server refuses other values', () => {
    expect(schemaAt('.spec.hook.capabilities[]')?.enum).toEqual([
      'pre-reconcile',
      'finalize',
      'finalization',
    ]);
    expect(
      schemaAt('.spec.workload.parameterConfiguration.fromSpec.toEnv[].valueFrom.builtInFunc.name')?.enum,
    ).toEqual(['resolveAddress']);
    // The registration's own validation still reports them with their §4 messages (not "must be equal to one of").
    expect(toJsonSchema(schemaAt('.spec.hook.capabilities[]')!)).not.toHaveProperty('enum');
  });
});
