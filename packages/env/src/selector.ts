import type { SelectorRef } from '@scoby/registration';

/** A key selector as written: `optional` only when the registration sets it. */
export function selector(ref: SelectorRef): SelectorRef {
  return ref.optional === undefined
    ? { name: ref.name, key: ref.key }
    : { name: ref.name, key: ref.key, optional: ref.optional };
}
