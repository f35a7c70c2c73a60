/**
 * CRDs are validated before they are taken: their schemas must be structural (a type on every field,
 * an object at the root), arrays name their items, properties and additionalProperties exclude each
 * other, and CEL rules must compile.
 */
import { ApiextensionsV1Api, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, failure, uniqueName, type Target } from './harness.ts';

let target: Target;
let extensions: ApiextensionsV1Api;

beforeAll(async () => {
  target = await connect();
  extensions = target.kubeConfig.makeApiClient(ApiextensionsV1Api);
});
afterAll(() => target.stop());

/** A CRD whose one version has this schema (client-node renames the extensions of typed nodes only). */
function crdWith(schema: Record<string, unknown>): V1CustomResourceDefinition {
  const group = `${uniqueName('schemas')}.example.com`;
  return {
    metadata: { name: `things.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'things', kind: 'Thing' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

const ROOT = 'spec.validation.openAPIV3Schema';

describe('CRD schemas', () => {
  it('must be structural, with items for arrays and no properties beside additionalProperties', async () => {
    const status = await failure(
      extensions.createCustomResourceDefinition({
        body: crdWith({
          type: 'string',
          properties: {
            spec: {
              properties: {
                list: { type: 'array' },
                both: {
                  type: 'object',
                  properties: { a: { type: 'string' } },
                  additionalProperties: { type: 'string' },
                },
              },
            },
          },
        }),
      }),
    );
    expect(status).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(status.details?.causes).toHaveLength(4);
    expect(status.details?.causes).toEqual(
      expect.arrayContaining([
        {
          reason: 'FieldValueRequired',
          field: `${ROOT}.properties[spec].properties[list].items`,
          message: 'Required value: must be specified',
        },
        {
          reason: 'FieldValueRequired',
          field: `${ROOT}.properties[spec].type`,
          message: 'Required value: must not be empty for specified object fields',
        },
        {
          reason: 'FieldValueInvalid',
          field: `${ROOT}.type`,
          message: 'Invalid value: "string": must be object at the root',
        },
        {
          reason: 'FieldValueForbidden',
          field: `${ROOT}.properties[spec].properties[both].additionalProperties`,
          message: 'Forbidden: additionalProperties and properties are mutual exclusive',
        },
      ]),
    );
  });

  it('must have CEL rules that compile (the compiler’s words differ: only the field is compared)', async () => {
    const status = await failure(
      extensions.createCustomResourceDefinition({
        body: crdWith({
          type: 'object',
          properties: {
            spec: { type: 'string', x_kubernetes_validations: [{ rule: 'self ==', message: 'm' }] },
          },
        }),
      }),
    );
    expect(status).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(status.details?.causes).toEqual([
      expect.objectContaining({
        reason: 'FieldValueInvalid',
        field: `${ROOT}.properties[spec].x-kubernetes-validations[0].rule`,
        message: expect.stringContaining('compilation failed: '),
      }),
    ]);
  });
});
