/**
 * resource.Quantity as kube-apiserver decodes and writes it (k8s.io/apimachinery/pkg/api/resource):
 * parsed with its errors, rounded up to thousandths, and written back in canonical form (`1024Mi` is
 * `1Gi`, `0.5` is `500m`, `1500000` is `1500k`) unless the text given is canonical already, which is
 * kept as written (`+1`, `5.`, `1E3`).
 */

export const QUANTITY_SYNTAX =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SYNTAX = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

const DECIMAL_SUFFIXES: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A quantity's exact value in thousandths (rounded up), its format, and its text as written back. */
export interface Quantity {
  milli: bigint;
  format: Format;
  text: string;
}

function parseSuffix(suffix: string): { base: 10 | 2; exponent: number; format: Format } | undefined {
  if (suffix in DECIMAL_SUFFIXES)
    return { base: 10, exponent: DECIMAL_SUFFIXES[suffix] ?? 0, format: 'DecimalSI' };
  if (suffix in BINARY_SUFFIXES)
    return { base: 2, exponent: BINARY_SUFFIXES[suffix] ?? 0, format: 'BinarySI' };
  const exponent = /^[eE]([-+]?[0-9]+)$/.exec(suffix);
  if (exponent) return { base: 10, exponent: Number(exponent[1]), format: 'DecimalExponent' };
  return undefined;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b !== 0n && a > 0n ? quotient + 1n : quotient;
}

/** A value of `milli` thousandths in canonical form. */
function canonical(milli: bigint, format: Format): string {
  if (milli === 0n) return '0';
  const negative = milli < 0n;
  const magnitude = negative ? -milli : milli;
  const sign = negative ? '-' : '';
  if (format === 'BinarySI' && magnitude >= 1024_000n && magnitude % 1000n === 0n) {
    let number = magnitude / 1000n;
    let exponent = 0;
    while (number % 1024n === 0n && exponent < 60) {
      number /= 1024n;
      exponent += 10;
    }
    const suffix = Object.entries(BINARY_SUFFIXES).find(([, value]) => value === exponent)?.[0] ?? '';
    return `${sign}${number}${suffix}`;
  }
  let mantissa = magnitude;
  let exponent = -3;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  const decimal = Object.entries(DECIMAL_SUFFIXES).find(([, value]) => value === exponent)?.[0];
  const suffix =
    format === 'DecimalExponent' ? (exponent === 0 ? '' : `e${exponent}`) : (decimal ?? `e${exponent}`);
  return `${sign}${mantissa}${suffix}`;
}

/** Parses a quantity as Go's ParseQuantity does; the error is the decoder's message. */
export function parseQuantity(input: string): { ok: true; value: Quantity } | { ok: false; message: string } {
  const text = input.trim();
  const match = SYNTAX.exec(text);
  if (!match) return { ok: false, message: QUANTITY_SYNTAX };
  const [, numberPart = '', suffixText = ''] = match;
  const suffix = parseSuffix(suffixText);
  if (suffix === undefined) return { ok: false, message: "unable to parse quantity's suffix" };
  const signed = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(numberPart);
  if (!signed || (signed[2] === '' && (signed[3] ?? '') === ''))
    return { ok: false, message: "unable to parse quantity's numeric part" };
  const [, sign = '', whole = '', fraction = ''] = signed;
  const digits = BigInt(`${whole}${fraction}` || '0');
  // value = digits × 10^(-fraction.length) × base^exponent, in thousandths, rounded up.
  let numerator = digits * 1000n;
  let denominator = 10n ** BigInt(fraction.length);
  if (suffix.base === 2) numerator *= 2n ** BigInt(suffix.exponent);
  else if (suffix.exponent >= 0) numerator *= 10n ** BigInt(suffix.exponent);
  else denominator *= 10n ** BigInt(-suffix.exponent);
  const exact = numerator % denominator === 0n;
  const magnitude = ceilDiv(numerator, denominator);
  const milli = sign === '-' ? -magnitude : magnitude;
  let format = suffix.format;
  if (format === 'BinarySI' && magnitude < 1000n && magnitude > 0n) format = 'DecimalSI';
  // Go keeps the text given when it is canonical already: an integer of few digits, in a scale of three.
  const shifted = `${whole}${fraction}`;
  const scale = (suffix.base === 10 ? suffix.exponent : 0) - fraction.length;
  const fastPath = shifted.length <= 18 && scale >= -9;
  const kept =
    exact &&
    fastPath &&
    (suffix.base === 2
      ? suffix.exponent % 10 === 0 && fraction.length === 0 && (digits & 7n) !== 0n
      : ((scale % 3) + 3) % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0');
  return { ok: true, value: { milli, format, text: kept ? text : canonical(milli, format) } };
}

/** A quantity's text as a field error quotes it (its canonical form). */
export function quantityText(quantity: Quantity): string {
  return canonical(quantity.milli, quantity.format);
}
