import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareByteOrder } from '../src/byte-order.ts';
import { compactJson } from '../src/compact-json.ts';
import { formatValue } from '../src/format-value.ts';

describe('byte order (env.md §1)', () => {
  it('orders by code point, not by locale or UTF-16 code unit', () => {
    const sorted = ['b', 'B', '_', 'a', 'Z', '\u{1F600}', '\uFFFD', 'é', ''].sort(compareByteOrder);
    expect(sorted).toEqual(['', 'B', 'Z', '_', 'a', 'b', 'é', '\uFFFD', '\u{1F600}']);
  });

  it('puts a proper prefix first', () => {
    expect(compareByteOrder('spec.a', 'spec.a-b')).toBeLessThan(0);
    expect(compareByteOrder('spec.a-b', 'spec.a.b')).toBeLessThan(0);
    expect(compareByteOrder('x', 'x')).toBe(0);
  });

  it('agrees with comparing UTF-8 encodings', () => {
    // Characters around the places where UTF-16 and UTF-8 order part ways, plus arbitrary graphemes.
    const boundary = fc.constantFrom(
      'a',
      'Z',
      '\uD7FF',
      '\uE000',
      '\uFFFD',
      '\uFFFF',
      '\u{10000}',
      '\u{1F600}',
      '\u{10FFFF}',
    );
    const tricky = fc.string({
      unit: fc.oneof(boundary, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
    });
    fc.assert(
      fc.property(tricky, tricky, (a, b) => {
        const expected = Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
        expect(Math.sign(compareByteOrder(a, b))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('value formatting (env.md §4)', () => {
  it.each([
    ['a string, unchanged', ' spaced "quoted" ', ' spaced "quoted" '],
    ['the empty string', '', ''],
    ['true', true, 'true'],
    ['false', false, 'false'],
    ['an integer', 3, '3'],
    ['a fraction', 0.25, '0.25'],
    ['a small number', 1.5e-7, '1.5e-7'],
    ['a large number', 1e21, '1e+21'],
    ['a negative number', -42.5, '-42.5'],
    ['primitives in array order', ['b', 1, true, 'a'], 'b,1,true,a'],
    ['null elements as empty strings', ['a', null, 'b'], 'a,,b'],
    ['an empty array', [], ''],
    ['array elements without escaping', ['x,y', 'a"b'], 'x,y,a"b'],
    ['numbers in arrays like scalars', [1234567.5, 1e21], '1234567.5,1e+21'],
    ['an array holding an object as JSON', [1, { b: 2, a: 1 }], '[1,{"a":1,"b":2}]'],
    ['an array holding an array as JSON', [[1, 2], [3]], '[[1,2],[3]]'],
    [
      'an object as JSON',
      { z: [null, true], a: { d: 'x', c: '' } },
      '{"a":{"c":"","d":"x"},"z":[null,true]}',
    ],
  ])('formats %s', (_title, value, expected) => {
    expect(formatValue(value)).toBe(expected);
  });

  it('renders nothing for null', () => {
    expect(formatValue(null)).toBeUndefined();
  });
});

describe('compact JSON (env.md §4)', () => {
  it('sorts keys in byte order at every depth, integer-like keys included', () => {
    expect(compactJson({ b: 1, '10': 2, '2': 3, B: { y: 1, x: [{ d: 1, c: 2 }] } })).toBe(
      '{"10":2,"2":3,"B":{"x":[{"c":2,"d":1}],"y":1},"b":1}',
    );
  });

  it('escapes only quote, backslash and control characters', () => {
    const text = 'q" b\\ \b\f\n\r\t \u0000 \u0001 \u001f \u007f <>& é \u2028 \u{1F600}';
    expect(compactJson([text])).toBe(
      '["q\\" b\\\\ \\b\\f\\n\\r\\t \\u0000 \\u0001 \\u001f \u007f <>& é \u2028 \u{1F600}"]',
    );
  });

  it('escapes keys like strings', () => {
    expect(compactJson({ 'a"b': 1, '\n': 2 })).toBe('{"\\n":2,"a\\"b":1}');
  });

  it('equals JSON.stringify of a key-sorted copy when no key is integer-like', () => {
    const key = fc.string().filter((k) => !/^(0|[1-9][0-9]*)$/.test(k) && k !== '__proto__');
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.array(tie('value')),
        fc.dictionary(key, tie('value')),
      ),
    })).value;
    const sortedCopy = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(sortedCopy);
      if (typeof value !== 'object' || value === null) return value;
      const copy: Record<string, unknown> = {};
      for (const k of Object.keys(value).sort(compareByteOrder)) copy[k] = sortedCopy((value as never)[k]);
      return copy;
    };
    fc.assert(
      fc.property(json, (value) => {
        expect(compactJson(value)).toBe(JSON.stringify(sortedCopy(value)));
      }),
    );
  });
});
