/**
 * The OpenAPI paths and definitions of a custom resource at one version, rendered from what
 * kube-apiserver generated for a template CRD of the same scope (data/kube-openapi.json): its names are
 * replaced by the CRD's in every path, operation id, tag and description; the kind's schema is built
 * from the CRD's own (crd-schema.ts).
 */
import type { JSONSchemaProps } from '@scoby/structural-schema';
import type { CrdTemplate } from './crd-template-names.ts';
import { crdKindSchemaV2, crdKindSchemaV3, type TypeMetaProperties } from './crd-schema.ts';
import { kubeOpenApiData, type OpenApiSchema } from './kube-openapi-data.ts';

/** What a served version of a CRD publishes. */
export interface CrdVersionView {
  group: string;
  version: string;
  plural: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  schema: JSONSchemaProps | undefined;
  status: boolean;
  scale: boolean;
  /** spec.versions[].selectableFields[].jsonPath */
  selectableFields: readonly string[];
}

export interface CrdOpenApiPart {
  paths: Record<string, unknown>;
  schemas: Record<string, OpenApiSchema>;
}

/** kube-openapi's ToValidOperationID: letters and digits kept, each word after another character capitalised. */
function operationIdPart(text: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalizeNext = capitalizeFirst;
  for (const char of text) {
    if (/[A-Za-z0-9]/.test(char)) {
      out += capitalizeNext ? char.toUpperCase() : char;
      capitalizeNext = false;
    } else {
      capitalizeNext = true;
    }
  }
  return out;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function reversedGroup(group: string): string {
  return group.split('.').reverse().join('.');
}

/** The replacements, most specific first (each template name is part of no other text of the documents). */
function replacements(template: CrdTemplate, view: CrdVersionView): [string, string][] {
  return [
    [`${template.kind}List`, view.listKind],
    [operationIdPart(template.group, true), operationIdPart(view.group, true)],
    [operationIdPart(template.group, false), operationIdPart(view.group, false)],
    [capitalized(template.version), capitalized(view.version)],
    [reversedGroup(template.group), reversedGroup(view.group)],
    [template.group, view.group],
    [template.plural, view.plural],
    [template.kind, view.kind],
    [template.version, view.version],
  ];
}

function renamed<T>(value: T, pairs: [string, string][]): T {
  let text = JSON.stringify(value);
  for (const [from, to] of pairs) text = text.split(from).join(to);
  return JSON.parse(text) as T;
}

function templateFor(view: CrdVersionView): CrdTemplate {
  const scope = view.namespaced ? 'Namespaced' : 'Cluster';
  const template = kubeOpenApiData().crdTemplates.names.find((candidate) => candidate.scope === scope);
  if (template === undefined) throw new Error(`data/kube-openapi.json has no ${scope} template CRD`);
  return template;
}

/** The paths of the template the view serves: the status and scale subresources only when it has them. */
function servedPaths(paths: Record<string, unknown>, view: CrdVersionView): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(paths).filter(
      ([path]) => (view.status || !path.endsWith('/status')) && (view.scale || !path.endsWith('/scale')),
    ),
  );
}

function definitionName(view: CrdVersionView, kind: string): string {
  return `${reversedGroup(view.group)}.${view.version}.${kind}`;
}

function templateKindSchema(template: CrdTemplate): OpenApiSchema {
  const document = kubeOpenApiData().crdTemplates.v3[template.scope];
  const schema =
    document.components.schemas[`${reversedGroup(template.group)}.${template.version}.${template.kind}`];
  if (schema?.properties === undefined) throw new Error('the template CRD has no kind schema');
  return schema;
}

function typeMeta(template: CrdTemplate): TypeMetaProperties {
  const properties = templateKindSchema(template).properties!;
  return { apiVersion: properties.apiVersion!, kind: properties.kind!, metadata: properties.metadata! };
}

function selectableFieldsExtension(view: CrdVersionView): Record<string, unknown> {
  if (view.selectableFields.length === 0) return {};
  return {
    'x-kubernetes-selectable-fields': view.selectableFields.map((path) => ({
      fieldPath: path.replace(/^\./, ''),
    })),
  };
}

/** /openapi/v3/apis/<group>/<version> for one CRD: its paths, its kind and list schemas, the shared ones. */
export function crdOpenApiV3(view: CrdVersionView): CrdOpenApiPart {
  const template = templateFor(view);
  const document = kubeOpenApiData().crdTemplates.v3[template.scope];
  const pairs = replacements(template, view);
  const kindName = `${reversedGroup(template.group)}.${template.version}.${template.kind}`;
  const schemas = renamed(document.components.schemas, pairs);
  schemas[definitionName(view, view.kind)] = crdKindSchemaV3(
    view.schema,
    view,
    typeMeta(template),
    selectableFieldsExtension(view),
  );
  const list = document.components.schemas[`${kindName}List`];
  schemas[definitionName(view, view.listKind)] = {
    ...renamed(list!, pairs),
    ...selectableFieldsExtension(view),
  };
  return { paths: servedPaths(renamed(document.paths, pairs), view), schemas };
}

/** The CRD's part of /openapi/v2: its paths and its kind and list definitions (shared ones are the built-ins'). */
export function crdOpenApiV2(view: CrdVersionView): {
  paths: Record<string, unknown>;
  definitions: Record<string, unknown>;
} {
  const template = templateFor(view);
  const captured = kubeOpenApiData().crdTemplates.v2;
  const prefix = `/apis/${template.group}/${template.version}/`;
  const pairs = replacements(template, view);
  const paths = Object.fromEntries(
    Object.entries(captured.paths).filter(([path]) => path.startsWith(prefix)),
  );
  const kindName = `${reversedGroup(template.group)}.${template.version}.${template.kind}`;
  const list = captured.definitions[`${kindName}List`] as Record<string, unknown>;
  return {
    paths: servedPaths(renamed(paths, pairs), view),
    definitions: {
      [definitionName(view, view.kind)]: crdKindSchemaV2(
        view.schema,
        view,
        typeMeta(template),
        selectableFieldsExtension(view),
      ),
      [definitionName(view, view.listKind)]: { ...renamed(list, pairs), ...selectableFieldsExtension(view) },
    },
  };
}
