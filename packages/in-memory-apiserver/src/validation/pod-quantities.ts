/**
 * The resource.Quantity fields of a workload's pod template (container resources, emptyDir size
 * limits), decoded as kube-apiserver's decoder reads them: a value it cannot parse fails the decoding of
 * the whole body (400), the others are written back in its form (see quantity.ts).
 */
import { isJsonObject, type JsonMap } from '@scoby/structural-schema';
import type { ResourceType } from '../resource-type.ts';
import { keyOf } from '../resource-type.ts';
import { parseQuantity, QUANTITY_SYNTAX } from './quantity.ts';

const WORKLOADS = new Set(['deployments.apps', 'statefulsets.apps']);

type Decoded<T> = { ok: true; value: T } | { ok: false; message: string };

function decodeQuantity(value: unknown): Decoded<unknown> {
  if (value === null || value === undefined) return { ok: true, value };
  if (typeof value !== 'string' && typeof value !== 'number') return { ok: false, message: QUANTITY_SYNTAX };
  const parsed = parseQuantity(String(value));
  return parsed.ok ? { ok: true, value: parsed.value.text } : parsed;
}

function decodeList(list: unknown): Decoded<unknown> {
  if (!isJsonObject(list)) return { ok: true, value: list };
  const result: JsonMap = {};
  for (const [name, value] of Object.entries(list)) {
    const decoded = decodeQuantity(value);
    if (!decoded.ok) return decoded;
    result[name] = decoded.value;
  }
  return { ok: true, value: result };
}

function decodeContainer(container: unknown): Decoded<unknown> {
  if (!isJsonObject(container) || !isJsonObject(container.resources)) return { ok: true, value: container };
  const resources: JsonMap = { ...container.resources };
  for (const key of ['limits', 'requests']) {
    if (resources[key] === undefined) continue;
    const decoded = decodeList(resources[key]);
    if (!decoded.ok) return decoded;
    resources[key] = decoded.value;
  }
  return { ok: true, value: { ...container, resources } };
}

function decodeVolume(volume: unknown): Decoded<unknown> {
  if (!isJsonObject(volume) || !isJsonObject(volume.emptyDir) || volume.emptyDir.sizeLimit === undefined)
    return { ok: true, value: volume };
  const decoded = decodeQuantity(volume.emptyDir.sizeLimit);
  if (!decoded.ok) return decoded;
  return { ok: true, value: { ...volume, emptyDir: { ...volume.emptyDir, sizeLimit: decoded.value } } };
}

function decodeEach(list: unknown, decode: (item: unknown) => Decoded<unknown>): Decoded<unknown> {
  if (!Array.isArray(list)) return { ok: true, value: list };
  const result: unknown[] = [];
  for (const item of list) {
    const decoded = decode(item);
    if (!decoded.ok) return decoded;
    result.push(decoded.value);
  }
  return { ok: true, value: result };
}

/** The workload with its pod template's quantities decoded, or the decoder's message. */
export function decodePodQuantities(type: ResourceType, object: JsonMap): Decoded<JsonMap> {
  if (!WORKLOADS.has(keyOf(type)) || !isJsonObject(object.spec)) return { ok: true, value: object };
  const template = object.spec.template;
  if (!isJsonObject(template) || !isJsonObject(template.spec)) return { ok: true, value: object };
  const podSpec: JsonMap = { ...template.spec };
  for (const [key, decode] of [
    ['containers', decodeContainer],
    ['initContainers', decodeContainer],
    ['volumes', decodeVolume],
  ] as const) {
    if (podSpec[key] === undefined) continue;
    const decoded = decodeEach(podSpec[key], decode);
    if (!decoded.ok) return decoded;
    podSpec[key] = decoded.value;
  }
  return {
    ok: true,
    value: { ...object, spec: { ...object.spec, template: { ...template, spec: podSpec } } },
  };
}
