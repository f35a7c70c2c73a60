import { isPlainObject, jsonTypeName } from '@scoby/kube-objects';
import type { Resolution } from './resolution.ts';

/** The `status.address.url` of an addressable object (docs/spec/address.md §2, rule 3). */
export function addressUrlOf(object: unknown): Resolution {
  const url = childOf(childOf(childOf(object, 'status'), 'address'), 'url');
  if (url === undefined || url === '') {
    return { ok: false, message: 'object does not inform "status.address.url"' };
  }
  if (typeof url !== 'string') {
    return {
      ok: false,
      message: `unexpected value at "status.address.url": expected string, got ${jsonTypeName(url)}`,
    };
  }
  return { ok: true, url };
}

function childOf(value: unknown, key: string): unknown {
  return isPlainObject(value) ? value[key] : undefined;
}
