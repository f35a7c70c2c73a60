import { readFileSync } from 'node:fs';
import type { CrdTemplate } from './crd-template-names.ts';

/** A schema of kube-apiserver's OpenAPI v3 documents (components.schemas), with the Kubernetes extensions. */
export interface OpenApiSchema {
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  default?: unknown;
  enum?: unknown[];
  nullable?: boolean;
  required?: string[];
  properties?: Record<string, OpenApiSchema>;
  additionalProperties?: OpenApiSchema | boolean;
  items?: OpenApiSchema;
  allOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-unions'?: unknown[];
  [extension: `x-${string}`]: unknown;
}

export interface OpenApiV3Document {
  openapi: string;
  info: unknown;
  paths: Record<string, unknown>;
  components: { schemas: Record<string, OpenApiSchema>; securitySchemes?: unknown };
}

export interface SwaggerDocument {
  swagger: string;
  info: unknown;
  paths: Record<string, unknown>;
  definitions: Record<string, unknown>;
  parameters: Record<string, unknown>;
  [field: string]: unknown;
}

/** A column of a meta.k8s.io/v1 Table. */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** data/kube-openapi.json, written by scripts/capture-openapi.ts. */
export interface KubeOpenApiData {
  /** The kube-apiserver release the documents were captured from (`v1.34.4`). */
  kubernetesVersion: string;
  /** /openapi/v2, cut down to the served built-ins. */
  v2: SwaggerDocument;
  /** /openapi/v3/<group-version path> (`api/v1`, `apis/apps/v1`), cut down to the served built-ins. */
  v3: Record<string, OpenApiV3Document>;
  /** The Table columns of each built-in list, by `<group>/<plural>`. */
  tableColumns: Record<string, TableColumnDefinition[]>;
  /** What kube-apiserver generates for the two template CRDs (see crd-template-names.ts). */
  crdTemplates: {
    names: CrdTemplate[];
    /** Their paths and definitions in /openapi/v2. */
    v2: { paths: Record<string, unknown>; definitions: Record<string, unknown> };
    /** Their /openapi/v3 group-version documents, by scope. */
    v3: Record<CrdTemplate['scope'], OpenApiV3Document>;
  };
}

let loaded: KubeOpenApiData | undefined;

/** The captured documents, read once (about 2 MB of JSON) when first needed. */
export function kubeOpenApiData(): KubeOpenApiData {
  loaded ??= JSON.parse(
    readFileSync(new URL('../../data/kube-openapi.json', import.meta.url), 'utf8'),
  ) as KubeOpenApiData;
  return loaded;
}
