/**
 * Cached objects share their strings. A string parsed from JSON is a string of its own in V8 even
 * when thousands of cached objects hold the same text: their namespace, apiVersion, kind, label keys
 * and values, owner references, condition types, reasons, messages and times. A property key is kept
 * once in V8's string table, which lets go of strings no longer used, so a value taken back from a
 * key is one shared copy that costs nothing once the last object holding it is gone.
 */

/** The one copy of `text` every caller gets. */
export function sharedString(text: string): string {
  const holder: Record<string, 0> = Object.create(null) as Record<string, 0>;
  holder[text] = 0;
  // A key that reads as an array index is kept as a number; its text comes back as a new string.
  for (const key in holder) return key;
  return text;
}

const EMPTY_OBJECT: Readonly<Record<string, never>> = Object.freeze({});
const EMPTY_ARRAY: readonly never[] = Object.freeze([]);

export interface SharingOptions {
  /**
   * Every empty object and array becomes one frozen empty object and array: for a copy no reader
   * changes (a slim child is frozen).
   */
  shareEmpty?: boolean;
}

/**
 * A copy of the JSON value `value` whose strings are shared (sharedString). Made by JSON.parse, which
 * gives each object a map of its exact size, as the watch's parse did: a copy built key by key would
 * hold more than the strings it saves.
 */
export function withSharedStrings<T>(value: T, options: SharingOptions = {}): T {
  if (value === undefined) return value;
  const shareEmpty = options.shareEmpty === true;
  return JSON.parse(JSON.stringify(value), (_key, field: unknown) => {
    if (typeof field === 'string') return sharedString(field);
    if (!shareEmpty || typeof field !== 'object' || field === null) return field;
    if (Array.isArray(field)) return field.length === 0 ? EMPTY_ARRAY : field;
    for (const _ in field) return field;
    return EMPTY_OBJECT;
  }) as T;
}
