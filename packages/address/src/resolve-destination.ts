import { serviceUrl } from '@scoby/kube-objects';
import { addressUrlOf } from './address-url.ts';
import { readDestination } from './destination.ts';
import { mergeUri, parseDestinationUri, parseUriBesideRef } from './merge-uri.ts';
import type { ObjectReader, ObjectRef } from './object-reader.ts';
import type { Resolution } from './resolution.ts';

export interface ResolveContext {
  /** Fills `ref.namespace` when missing; undefined means the destination must name it (hook address). */
  namespace?: string;
  clusterDomain: string;
  reader: ObjectReader;
}

/**
 * Resolves a destination (`{ref?, uri?}`) to a URL (docs/spec/address.md §1–§5). Never throws: every failure,
 * including one thrown by the reader, comes back as a message.
 */
export async function resolveDestination(destination: unknown, context: ResolveContext): Promise<Resolution> {
  const checked = readDestination(destination, context.namespace);
  if (!checked.ok) return checked;
  if (checked.destination.ref === undefined) {
    // A uri alone is returned as written, even when relative (resolveAddress).
    const { uri } = checked.destination;
    const parsed = parseDestinationUri(uri);
    return parsed.ok ? { ok: true, url: uri } : parsed;
  }
  const { ref, uri } = checked.destination;
  if (uri !== undefined) {
    // Checked before reading, so a malformed uri is reported without an API request.
    const adjustment = parseUriBesideRef(uri);
    if (!adjustment.ok) return adjustment;
  }
  const base = await baseUrlOf(ref, context);
  return base.ok ? mergeUri(base.url, uri) : base;
}

async function baseUrlOf(ref: ObjectRef, context: ResolveContext): Promise<Resolution> {
  let read;
  try {
    read = await context.reader.get(ref);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  if ('unknownKind' in read) {
    return {
      ok: false,
      message: `no API resource for kind ${JSON.stringify(ref.kind)} in ${JSON.stringify(ref.apiVersion)}`,
    };
  }
  if (!read.found) return { ok: false, message: read.message };
  if (isKubernetesService(ref)) {
    return { ok: true, url: serviceUrl(ref.name, ref.namespace, context.clusterDomain) };
  }
  return addressUrlOf(read.object);
}

/** Only core Services get a DNS-derived URL; any other kind must publish its own address. */
function isKubernetesService(ref: ObjectRef): boolean {
  return ref.apiVersion === 'v1' && ref.kind === 'Service';
}
