/**
 * The string formats the API server checks for custom resources: apiextensions strips every other
 * format (int32, int64, float, double, ...) before validating, so those are never checked. Names are
 * compared without dashes, as go-openapi's strfmt registry does (`date-time` is `datetime`).
 */
import { isCIDR, isIP } from './ip.ts';

type FormatCheck = (value: string) => boolean;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const TIME_OF_DAY = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const FULL_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const MAC_COLON = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2})*$/i;
const MAC_DOT = /^[0-9a-f]{4}(?:\.[0-9a-f]{4})*$/i;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\uffff]+";
const DOT_ATOM = `${ATOM}(?:\\.${ATOM})*`;
const ADDR_SPEC = `(?:${DOT_ATOM}|"(?:[^"\\\\]|\\\\.)*")@(?:${DOT_ATOM}|\\[[^\\[\\]\\\\]*\\])`;
const EMAIL = new RegExp(`^\\s*(?:${ADDR_SPEC}|(?:[^<>]*)<${ADDR_SPEC}>)\\s*$`);
const GO_DURATION = /^[-+]?(?:0|(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const WORDY_DURATION = /(\d+)\s*([A-Za-zµ]+)/g;
const DURATION_UNITS = [
  ['ns', 'nanoseconds'],
  ['us', 'µs', 'microseconds'],
  ['ms', 'milliseconds'],
  ['s', 'seconds'],
  ['m', 'minutes'],
  ['h', 'hours'],
  ['d', 'days'],
  ['w', 'weeks'],
];

const UTF8 = new TextEncoder();

/** time.Parse("2006-01-02"): four-digit year, two-digit month and day, the day existing in that month. */
export function isFullDate(value: string): boolean {
  const match = FULL_DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** strfmt.IsDateTime: the text after the first `t` (case-insensitive) is the time of day. */
export function isDateTime(value: string): boolean {
  if (value.length < 4) return false;
  const parts = value.toLowerCase().split('t');
  const time = parts.length < 2 ? null : TIME_OF_DAY.exec(parts[1] ?? '');
  if (time === null || !isFullDate(parts[0] ?? '')) return false;
  const [hours = '', minutes = '', seconds = ''] = time.slice(1);
  return hours <= '23' && minutes <= '59' && seconds <= '59';
}

/** strfmt.IsHostname: the pattern, at most 255 bytes, labels of at most 63 bytes. */
export function isHostname(value: string): boolean {
  if (!HOSTNAME.test(value) || UTF8.encode(value).length > 255) return false;
  return value.split('.').every((label) => UTF8.encode(label).length <= 63);
}

/** net.ParseMAC: 6, 8 or 20 octets as `aa:bb:..`, `aa-bb-..` or `aabb.ccdd...`. */
export function isMAC(value: string): boolean {
  const octets = MAC_COLON.test(value)
    ? (value.length + 1) / 3
    : MAC_DOT.test(value)
      ? ((value.length + 1) / 5) * 2
      : 0;
  return octets === 6 || octets === 8 || octets === 20;
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f;
  });
}

/** url.ParseRequestURI: an absolute URI or an absolute path, without control characters. */
export function isRequestURI(value: string): boolean {
  if (value === '' || value.startsWith(':') || hasControlCharacter(value)) return false;
  if (value === '*') return true;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value);
  const rest = (scheme === null ? value : value.slice(scheme[0].length)).split('?')[0] ?? '';
  if (!rest.startsWith('/')) return scheme !== null;
  let path = rest;
  if (scheme !== null && rest.startsWith('//')) {
    const authorityEnd = rest.indexOf('/', 2);
    const authority = authorityEnd < 0 ? rest.slice(2) : rest.slice(2, authorityEnd);
    path = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
    if (!isValidAuthority(authority)) return false;
  }
  return !/%(?![0-9a-fA-F]{2})/.test(path);
}

function isValidAuthority(authority: string): boolean {
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (hasControlCharacter(host) || /[ #/?{}|\\^`]/.test(host)) return false;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return close > 0 && /^(:[0-9]*)?$/.test(host.slice(close + 1));
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 || /^:[0-9]*$/.test(host.slice(colon));
}

/** strfmt.ParseDuration: a Go duration (`1h30m`), or counts with unit words (`3 days`). */
export function isDuration(value: string): boolean {
  if (GO_DURATION.test(value)) return true;
  for (const [, , word] of value.matchAll(WORDY_DURATION)) {
    const unit = (word ?? '').toLowerCase();
    const known = DURATION_UNITS.some((variants) =>
      variants.some(
        (variant, i) => unit === variant || (i === variants.length - 1 && unit.startsWith(variant)),
      ),
    );
    if (known) return true;
  }
  return false;
}

const FORMAT_CHECKS: Record<string, FormatCheck> = {
  bsonobjectid: (v) => /^[0-9a-fA-F]{24}$/.test(v),
  uri: isRequestURI,
  email: (v) => EMAIL.test(v),
  hostname: isHostname,
  ipv4: (v) => isIP(v) && v.includes('.'),
  ipv6: (v) => isIP(v) && v.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (v) => UUID.test(v),
  uuid3: (v) => UUID3.test(v),
  uuid4: (v) => UUID4.test(v),
  uuid5: (v) => UUID5.test(v),
  ssn: (v) => /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(v),
  hexcolor: (v) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(v),
  rgbcolor: (v) => {
    const channel = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
    return new RegExp(`^rgb\\(${channel},${channel},${channel}\\)$`).test(v);
  },
  byte: (v) => BASE64.test(v.replace(/[\r\n]/g, '')),
  password: () => true,
  date: isFullDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** The check of a format the API server enforces, undefined for formats it ignores. */
export function formatCheck(format: string | undefined): FormatCheck | undefined {
  if (format === undefined || format === '') return undefined;
  return FORMAT_CHECKS[format.replaceAll('-', '')];
}
