/**
 * Renders values the way Go's fmt package does, because Kubernetes error messages are produced by
 * Go (`%q`, `%v`, `%#v` of decoded JSON) and clients compare them verbatim.
 */
import { isJsonObject } from './json-value.ts';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const NAMED_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's strconv.Quote (`%q`). */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const named = NAMED_ESCAPES[ch];
    const code = ch.codePointAt(0) ?? 0;
    if (named !== undefined) out += named;
    else if (PRINTABLE.test(ch)) out += ch;
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return out + '"';
}

/** Go's `%v` of a float64: shortest digits, exponent form below 1e-4 and from 1e+06 (e.g. `1e+06`). */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = n.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const digits = String(Math.abs(exponent)).padStart(2, '0');
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return String(n);
}

/** `%v` of a decoded JSON number: whole numbers decode to int64, the rest to float64. */
export function goNumber(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : goFloat(n);
}

/** Go's `%#v` of a decoded JSON value (`map[string]interface {}{"a":1}`, `[]interface {}{"x"}`). */
export function goSyntax(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${goQuote(k)}:${goSyntax(value[k])}`);
    return `map[string]interface {}{${entries.join(', ')}}`;
  }
  return String(value);
}

/** Go's `%v` of a decoded JSON value (`map[a:1 b:x]`, `[x y]`). */
export function goPlain(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return goNumber(value);
  if (Array.isArray(value)) return `[${value.map(goPlain).join(' ')}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${k}:${goPlain(value[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

/** Go's `%#v` of a `[]string` (`[]string{"a", "b"}`, or `[]string(nil)` when there is none). */
export function goStringSlice(values: readonly string[] | undefined): string {
  return values === undefined ? '[]string(nil)' : `[]string{${values.map(goQuote).join(', ')}}`;
}

/** How a field error shows its bad value (k8s.io/apimachinery field.Error.ErrorBody). */
export function renderBadValue(value: unknown): string {
  // A nil bad value is printed as the string "null".
  return value === null || value === undefined ? goQuote('null') : goSyntax(value);
}
