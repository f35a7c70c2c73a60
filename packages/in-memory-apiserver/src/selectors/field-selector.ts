/**
 * Field selectors (fields.ParseSelector plus the API server's field label check): terms
 * `field=value`, `field==value`, `field!=value` separated by commas, with `\,`, `\=` and `\\` escapes
 * in values. Every resource supports metadata.name and metadata.namespace.
 */
import type { ParsedFieldSelector, SelectableObject } from './result.ts';

interface Term {
  field: string;
  value: string;
  negated: boolean;
}

class SelectorFailure extends Error {}

const DEFAULT_FIELDS = ['metadata.name', 'metadata.namespace'];
const OPERATORS = ['!=', '==', '='];

/** Splits on commas that are not escaped by a backslash. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let current = '';
  let escaped = false;
  for (const ch of text) {
    if (escaped) {
      escaped = false;
    } else if (ch === '\\') {
      escaped = true;
    } else if (ch === ',') {
      terms.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  terms.push(current);
  return terms;
}

/** The first operator occurrence splits the term; `!=` and `==` win over `=` at the same place. */
function splitTerm(term: string): { field: string; operator: string; value: string } | undefined {
  for (let i = 0; i < term.length; i += 1) {
    const operator = OPERATORS.find((op) => term.startsWith(op, i));
    if (operator !== undefined)
      return { field: term.slice(0, i), operator, value: term.slice(i + operator.length) };
  }
  return undefined;
}

function unescapeValue(value: string): string {
  let out = '';
  let escaped = false;
  for (const ch of value) {
    if (escaped) {
      if (ch !== '\\' && ch !== ',' && ch !== '=') {
        throw new SelectorFailure(`invalid field selector: invalid escape sequence: \\${ch}`);
      }
      out += ch;
      escaped = false;
    } else if (ch === '\\') {
      escaped = true;
    } else if (ch === ',' || ch === '=') {
      // Go prints the offending rune with %v, i.e. as its code point number.
      throw new SelectorFailure(`invalid field selector: unescaped character in value: ${ch.codePointAt(0)}`);
    } else {
      out += ch;
    }
  }
  if (escaped) throw new SelectorFailure('invalid field selector: invalid escape sequence: \\');
  return out;
}

function parseTerms(text: string): Term[] {
  return splitTerms(text)
    .sort()
    .filter((part) => part !== '')
    .map((part) => {
      const split = splitTerm(part);
      if (split === undefined)
        throw new SelectorFailure(`invalid selector: '${text}'; can't understand '${part}'`);
      return { field: split.field, value: unescapeValue(split.value), negated: split.operator === '!=' };
    });
}

/** A field's value as a selector sees it: strings as they are, numbers and booleans printed, else empty. */
export function fieldValue(object: SelectableObject, path: string): string {
  let node: unknown = object;
  for (const step of path.split('.')) {
    node =
      typeof node === 'object' && node !== null && !Array.isArray(node)
        ? (node as Record<string, unknown>)[step]
        : undefined;
  }
  return typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean'
    ? String(node)
    : '';
}

/** A resource's selectable fields, each with how its value is read (kube-apiserver's per-type field sets). */
export type SelectableFields = Readonly<Record<string, (object: SelectableObject) => string>>;

/**
 * `fields`: the selectable fields of the resource; a list of paths adds those, read by path, to
 * metadata.name and metadata.namespace.
 */
export function parseFieldSelector(
  text: string,
  fields: readonly string[] | SelectableFields = [],
): ParsedFieldSelector {
  try {
    const terms = parseTerms(text);
    const readers: SelectableFields = Array.isArray(fields)
      ? Object.fromEntries(
          [...DEFAULT_FIELDS, ...fields].map((path) => [
            path,
            (object: SelectableObject) => fieldValue(object, path),
          ]),
        )
      : (fields as SelectableFields);
    const unsupported = terms.find((term) => readers[term.field] === undefined);
    if (unsupported !== undefined)
      return { ok: false, message: `field label not supported: ${unsupported.field}` };
    return {
      ok: true,
      matches: (object) =>
        terms.every((term) => (readers[term.field]!(object) === term.value) !== term.negated),
    };
  } catch (error) {
    if (error instanceof SelectorFailure) return { ok: false, message: error.message };
    throw error;
  }
}
