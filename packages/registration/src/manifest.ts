/**
 * The CustomResourceDefinition of CRDRegistration (docs/spec/registration.md §1), built around SCHEMA.
 * crds/scoby.triggermesh.io_crdregistrations.yaml is this object serialised by scripts/generate.ts.
 */
import { stringify } from 'yaml';
import type { KubeObject } from '@scoby/kube-objects';
import { SCHEMA } from './schema.ts';
import { GROUP, KIND, VERSION } from './types.ts';

const PLURAL = 'crdregistrations';

export function crdManifest(): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${PLURAL}.${GROUP}`,
      labels: { 'triggermesh.io/crd-install': 'true' },
    },
    spec: {
      group: GROUP,
      scope: 'Cluster',
      names: {
        kind: KIND,
        listKind: `${KIND}List`,
        plural: PLURAL,
        singular: 'crdregistration',
        shortNames: ['crdreg'],
      },
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'CRD', type: 'string', jsonPath: '.spec.crd' },
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          // A deep copy: callers may edit the manifest without touching SCHEMA.
          schema: { openAPIV3Schema: structuredClone(SCHEMA) },
        },
      ],
    },
  };
}

const HEADER =
  '# Generated from packages/registration/src/schema.ts by `npm run generate -w @scoby/registration`.\n' +
  '# Do not edit by hand.\n';

/** The manifest file's exact content. */
export function crdManifestYaml(): string {
  // Shared schema nodes must be written out in full: the API server does not resolve YAML aliases.
  return HEADER + stringify(crdManifest(), { aliasDuplicateObjects: false, lineWidth: 0 });
}
