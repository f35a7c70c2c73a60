/**
 * The CRDs the generator's custom resources belong to, installed alike on both servers before a
 * sequence: a namespaced Widget with a structural schema and a status subresource, and Scoby's own
 * CRDRegistration as the chart ships it.
 */
import { readFileSync } from 'node:fs';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { CONTROLLER_PATIENCE_MS, eventually, rawRequest, type Target } from '../conformance/harness.ts';

/** A CRD as JSON (written raw: client-node's serializer knows neither `enum` nor `x-kubernetes-*`). */
type Crd = { metadata: { name: string } } & Record<string, unknown>;

export const WIDGET_CRD: Crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.differential.example.com' },
  spec: {
    group: 'differential.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: { type: 'integer', minimum: 0, maximum: 100 },
                  color: { type: 'string', enum: ['front', 'back', 'red'] },
                  tags: { type: 'array', items: { type: 'string' } },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: {
                      type: 'object',
                      required: ['name'],
                      properties: { name: { type: 'string' }, port: { type: 'integer' } },
                    },
                  },
                },
              },
              status: {
                type: 'object',
                properties: {
                  phase: { type: 'string' },
                  observedGeneration: { type: 'integer', format: 'int64' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** Scoby's CRDRegistration CRD, read from the Helm chart. */
export const CRD_REGISTRATION_CRD: Crd = parse(
  readFileSync(
    new URL('../../../../deploy/helm/scoby/crds/scoby.triggermesh.io_crdregistrations.yaml', import.meta.url),
    'utf8',
  ),
) as Crd;

export const DIFFERENTIAL_CRDS = [WIDGET_CRD, CRD_REGISTRATION_CRD];

/** Installs the CRDs (an existing one is kept) and waits until each is Established. */
export async function installDifferentialCrds(target: Target): Promise<void> {
  const extensions = target.kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const crd of DIFFERENTIAL_CRDS) {
    const name = crd.metadata.name;
    const created = await rawRequest(
      target,
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      {
        contentType: 'application/json',
        text: JSON.stringify(crd),
      },
    );
    if (created.status !== 201 && created.status !== 409)
      throw new Error(`installing ${name}: ${created.status} ${JSON.stringify(created.json)}`);
    await eventually(async () => {
      const current = await extensions.readCustomResourceDefinition({ name });
      return (current.status?.conditions ?? []).some(
        (condition) => condition.type === 'Established' && condition.status === 'True',
      )
        ? true
        : undefined;
    }, CONTROLLER_PATIENCE_MS);
  }
}
