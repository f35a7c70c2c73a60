/**
 * Name and label checks of k8s.io/apimachinery/pkg/util/validation, with their exact messages
 * (including the doubled space Go's RegexError puts before each "or").
 */

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

const anchored = (fmt: string): RegExp => new RegExp(`^${fmt}$`);
const QUALIFIED_NAME = anchored(QUALIFIED_NAME_FMT);
const LABEL_VALUE = anchored(LABEL_VALUE_FMT);
const DNS1123_SUBDOMAIN = anchored(DNS1123_SUBDOMAIN_FMT);
const DNS1035_LABEL = anchored(DNS1035_LABEL_FMT);

/** Go's validation.RegexError. */
export function regexError(message: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${fmt}')`;
  const shown = examples.map((e) => `'${e}', `).join(' or ');
  return `${message} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

const UTF8 = new TextEncoder();
const byteLength = (text: string): number => UTF8.encode(text).length;

export function isDns1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 253) errors.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errors;
}

export function isDns1035Label(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 63) errors.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value)) {
    errors.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  }
  return errors;
}

/** A label key or annotation key: `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  if (parts.length > 2) {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  const name = parts.length === 2 ? (parts[1] ?? '') : value;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...isDns1123Subdomain(prefix).map((e) => `prefix part ${e}`));
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (byteLength(name) > 63) errors.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME.test(name)) {
    errors.push(
      `name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errors;
}

export function isValidLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > 63) errors.push(maxLenError(63));
  if (!LABEL_VALUE.test(value)) {
    errors.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errors;
}
