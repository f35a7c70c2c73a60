/** YAML files and strings → the objects they describe, as `kubectl apply -f` reads them. */
import { readFile } from 'node:fs/promises';
import type { KubeObject } from '@scoby/kube-objects';
import { parseAllDocuments } from 'yaml';

/** Every non-empty document of a multi-document YAML text, in order; a `List` contributes its items. */
export function parseManifests(text: string): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0)
      throw new Error(`invalid YAML: ${document.errors.map((error) => error.message).join('; ')}`);
    const value = document.toJS() as unknown;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new Error(`a manifest must be an object, got ${JSON.stringify(value)}`);
    const object = value as KubeObject & { items?: KubeObject[] };
    if (object.kind === 'List') objects.push(...(object.items ?? []));
    else objects.push(object);
  }
  return objects;
}

export async function readManifests(file: string | URL): Promise<KubeObject[]> {
  return parseManifests(await readFile(file, 'utf8'));
}
