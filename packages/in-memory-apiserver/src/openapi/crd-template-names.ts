/**
 * The two CRDs whose OpenAPI documents scripts/capture-openapi.ts captures from kube-apiserver: the
 * in-memory server renders the paths of any CRD from them by putting the CRD's names in place of these.
 * The names are chosen so that none is part of another text of the documents.
 */
export interface CrdTemplate {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  scope: 'Namespaced' | 'Cluster';
}

export const CRD_TEMPLATES: readonly CrdTemplate[] = [
  {
    group: 'zznsgroup.zzdomain',
    version: 'zznsversion',
    plural: 'zznskinds',
    singular: 'zznskind',
    kind: 'Zznskind',
    scope: 'Namespaced',
  },
  {
    group: 'zzclgroup.zzdomain',
    version: 'zzclversion',
    plural: 'zzclkinds',
    singular: 'zzclkind',
    kind: 'Zzclkind',
    scope: 'Cluster',
  },
];
