/**
 * Kubernetes objects from YAML or JSON text: several documents per file, `List` kinds flattened,
 * each problem naming the file and the document.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { KubeObject } from '@scoby/kube-objects';
import { parseAllDocuments } from 'yaml';

export type ObjectsReading = { ok: true; objects: KubeObject[] } | { ok: false; message: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isKubeObject(value: unknown): value is KubeObject {
  return (
    isObject(value) &&
    typeof value.apiVersion === 'string' &&
    value.apiVersion !== '' &&
    typeof value.kind === 'string' &&
    value.kind !== '' &&
    isObject(value.metadata)
  );
}

/** `List` (kubectl's mixed list) or a typed list such as `ServiceList`. */
function isList(value: unknown): value is Record<string, unknown> {
  return (
    isObject(value) &&
    typeof value.kind === 'string' &&
    (value.kind === 'List' || (value.kind.endsWith('List') && 'items' in value))
  );
}

/** Objects of every document of `text` (JSON is YAML); empty documents are skipped. */
export function parseObjects(text: string, source: string): ObjectsReading {
  const objects: KubeObject[] = [];
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents)) return { ok: true, objects };
  for (const [index, document] of documents.entries()) {
    const where = `${source}: document ${index + 1}`;
    const [error] = document.errors;
    if (error) return { ok: false, message: `${where}: ${error.message}` };
    const value: unknown = document.toJS();
    if (value === null || value === undefined) continue;
    const entries = isList(value) ? value.items : [value];
    if (!Array.isArray(entries)) return { ok: false, message: `${where}: a List needs an "items" array` };
    for (const entry of entries) {
      if (!isKubeObject(entry)) {
        return {
          ok: false,
          message: `${where}: not a Kubernetes object (apiVersion, kind and metadata are required)`,
        };
      }
      objects.push(entry);
    }
  }
  return { ok: true, objects };
}

export async function readObjects(file: string, cwd: string): Promise<ObjectsReading> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    return { ok: false, message: `cannot read ${file}: ${(error as Error).message}` };
  }
  return parseObjects(text, file);
}

export type SingleReading = { ok: true; object: KubeObject } | { ok: false; message: string };

/** The one object a file must hold, e.g. the registration or the instance. */
export async function readSingleObject(file: string, cwd: string, what: string): Promise<SingleReading> {
  const reading = await readObjects(file, cwd);
  if (!reading.ok) return reading;
  const [object, ...others] = reading.objects;
  if (object === undefined || others.length > 0) {
    return {
      ok: false,
      message: `${file}: expected exactly one ${what}, found ${reading.objects.length} objects`,
    };
  }
  return { ok: true, object };
}

export interface ObjectType {
  apiVersion: string;
  kind: string;
}

/**
 * The one object of a type a file must hold: without the check, a Deployment given as the registration
 * was read as a registration with no spec and failed later with a message about fields.
 */
export async function readSingleObjectOf(
  file: string,
  cwd: string,
  type: ObjectType,
): Promise<SingleReading> {
  const reading = await readSingleObject(file, cwd, type.kind);
  if (!reading.ok) return reading;
  const { apiVersion, kind } = reading.object;
  if (apiVersion === type.apiVersion && kind === type.kind) return reading;
  return {
    ok: false,
    message: `${file}: expected a ${type.kind} (${type.apiVersion}), found ${String(kind)} (${String(apiVersion)})`,
  };
}

/** The objects of every file, in order; the first problem is reported. */
export async function readAllObjects(files: readonly string[], cwd: string): Promise<ObjectsReading> {
  const objects: KubeObject[] = [];
  for (const file of files) {
    const reading = await readObjects(file, cwd);
    if (!reading.ok) return reading;
    objects.push(...reading.objects);
  }
  return { ok: true, objects };
}
