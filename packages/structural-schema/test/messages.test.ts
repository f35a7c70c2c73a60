import { describe, expect, it } from 'vitest';
import { formatInvalidMessage, type Cause } from '../src/index.ts';
import { goFloat, goQuote, goSyntax } from '../src/go-format.ts';

const replicas: Cause = {
  type: 'FieldValueTypeInvalid',
  field: 'spec.replicas',
  message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
};
const missing: Cause = { type: 'FieldValueRequired', field: 'spec.a', message: 'Required value' };

describe('formatInvalidMessage', () => {
  it('one cause stands alone', () => {
    expect(formatInvalidMessage('Mailer.notify.example.com', 'orders', [replicas])).toBe(
      'Mailer.notify.example.com "orders" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    );
  });

  it('several causes are bracketed and comma separated', () => {
    expect(formatInvalidMessage('Mailer.notify.example.com', 'orders', [missing, replicas])).toBe(
      'Mailer.notify.example.com "orders" is invalid: [spec.a: Required value, spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"]',
    );
  });

  it('identical causes are listed once', () => {
    expect(formatInvalidMessage('Pod', 'p', [missing, missing])).toBe(
      'Pod "p" is invalid: spec.a: Required value',
    );
  });

  it('no cause, no colon', () => {
    expect(formatInvalidMessage('Pod', 'p', [])).toBe('Pod "p" is invalid');
  });
});

describe('Go value formatting', () => {
  it('quotes like strconv.Quote', () => {
    expect(goQuote('a"b\\c\t\u0007\u00e9\u200b')).toBe('"a\\"b\\\\c\\t\\a\u00e9\\u200b"');
  });

  it.each([
    [1, '1'],
    [1.5, '1.5'],
    [100000, '100000'],
    [1000000, '1e+06'],
    [123456789, '1.23456789e+08'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
  ])('prints float64 %s as %s', (value, text) => {
    expect(goFloat(value)).toBe(text);
  });

  it('prints decoded JSON with %#v', () => {
    expect(goSyntax({ z: [1, 'a'], a: null })).toBe(
      'map[string]interface {}{"a":interface {}(nil), "z":[]interface {}{1, "a"}}',
    );
  });
});
