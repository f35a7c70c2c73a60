import { describe, expect, it } from 'vitest';
import { compactJson, compareByteOrder } from '../src/index.ts';

describe('compareByteOrder', () => {
  it('orders upper case before lower case', () => {
    expect(['spec.loglevel', 'spec.logLevel'].sort(compareByteOrder)).toEqual(['spec.logLevel', 'spec.loglevel']);
  });
  it('orders astral characters after U+E000–U+FFFF, unlike UTF-16 unit order', () => {
    const astral = '\u{1F600}';
    const privateUse = '\uE000';
    expect([astral, privateUse].sort()).toEqual([astral, privateUse]);
    expect([astral, privateUse].sort(compareByteOrder)).toEqual([privateUse, astral]);
  });
  it('orders a prefix first', () => {
    expect(compareByteOrder('A', 'A_B')).toBeLessThan(0);
    expect(compareByteOrder('same', 'same')).toBe(0);
  });
});

describe('compactJson', () => {
  it('sorts keys at every depth and keeps array order and literal <, >, &', () => {
    expect(compactJson({ match: 'a<b', action: [{ z: 1, a: '&' }, 2], b: { y: null, x: true } })).toBe(
      '{"action":[{"a":"&","z":1},2],"b":{"x":true,"y":null},"match":"a<b"}',
    );
  });
  it('escapes only quote, backslash and control characters', () => {
    expect(compactJson(['"\\\n\u0001é'])).toBe('["\\"\\\\\\n\\u0001é"]');
  });
});
