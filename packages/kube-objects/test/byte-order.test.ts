import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareByteOrder, hasSurrogates } from '../src/index.ts';

describe('compareByteOrder (byte order, docs/spec/env.md §1)', () => {
  it('orders by code point, not by locale or UTF-16 code unit', () => {
    const sorted = ['b', 'B', '_', 'a', 'Z', '\u{1F600}', '\uFFFD', 'é', ''].sort(compareByteOrder);
    expect(sorted).toEqual(['', 'B', 'Z', '_', 'a', 'b', 'é', '\uFFFD', '\u{1F600}']);
  });

  it('orders upper case before lower case', () => {
    expect(['spec.loglevel', 'spec.logLevel'].sort(compareByteOrder)).toEqual([
      'spec.logLevel',
      'spec.loglevel',
    ]);
  });

  it('orders astral characters after U+E000–U+FFFF, unlike UTF-16 unit order', () => {
    const astral = '\u{1F600}';
    const privateUse = '\uE000';
    expect([astral, privateUse].sort()).toEqual([astral, privateUse]);
    expect([astral, privateUse].sort(compareByteOrder)).toEqual([privateUse, astral]);
  });

  it('keeps code point order among astral characters and among U+E000–U+FFFF', () => {
    expect(['\u{10FFFF}', '\u{10000}', '\u{1F600}'].sort(compareByteOrder)).toEqual([
      '\u{10000}',
      '\u{1F600}',
      '\u{10FFFF}',
    ]);
    expect(['\uFFFF', '\uE000', '\uFFFD'].sort(compareByteOrder)).toEqual(['\uE000', '\uFFFD', '\uFFFF']);
    expect(['\u{10000}', '\uD7FF'].sort(compareByteOrder)).toEqual(['\uD7FF', '\u{10000}']);
  });

  it('puts a proper prefix first and equal strings level', () => {
    expect(compareByteOrder('spec.a', 'spec.a-b')).toBeLessThan(0);
    expect(compareByteOrder('spec.a-b', 'spec.a.b')).toBeLessThan(0);
    expect(compareByteOrder('A', 'A_B')).toBeLessThan(0);
    expect(compareByteOrder('A_B', 'A')).toBeGreaterThan(0);
    expect(compareByteOrder('same', 'same')).toBe(0);
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

describe('hasSurrogates', () => {
  it('is false when native string order is byte order', () => {
    expect(hasSurrogates([])).toBe(false);
    expect(hasSurrogates(['spec.a', 'é', '\uD7FF', '\uE000', '\uFFFF'])).toBe(false);
  });

  it('is true when any string holds a character above U+FFFF, or a lone surrogate', () => {
    expect(hasSurrogates(['spec.a', 'x\u{1F600}'])).toBe(true);
    expect(hasSurrogates(['\uDC00'])).toBe(true);
  });

  it('tells exactly when native comparison may disagree with byte order', () => {
    const unit = fc.constantFrom('a', '\uD7FF', '\uE000', '\uFFFF', '\u{10000}', '\u{1F600}');
    fc.assert(
      fc.property(fc.array(fc.string({ unit }), { maxLength: 6 }), (strings) => {
        const native = [...strings].sort();
        const bytes = [...strings].sort(compareByteOrder);
        if (!hasSurrogates(strings)) expect(native).toEqual(bytes);
      }),
    );
  });
});
