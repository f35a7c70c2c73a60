import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactJson, compareByteOrder } from '../src/index.ts';

describe('compactJson (docs/spec/env.md §4)', () => {
  it('sorts keys in byte order at every depth and keeps array order', () => {
    expect(compactJson({ match: 'a<b', action: [{ z: 1, a: '&' }, 2], b: { y: null, x: true } })).toBe(
      '{"action":[{"a":"&","z":1},2],"b":{"x":true,"y":null},"match":"a<b"}',
    );
  });

  it('sorts integer-like keys in byte order too', () => {
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

  it('drops undefined members and writes undefined elements as null, like JSON.stringify', () => {
    expect(compactJson({ b: undefined, a: [undefined, 1] })).toBe('{"a":[null,1]}');
    expect(compactJson({ only: undefined })).toBe('{}');
  });

  it('writes scalars as JSON.stringify does', () => {
    expect([null, true, 0, -1.5, 1e21, '', 'x'].map(compactJson)).toEqual([
      'null',
      'true',
      '0',
      '-1.5',
      '1e+21',
      '""',
      '"x"',
    ]);
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
