import { describe, expect, it } from 'vitest';
import { formatValue } from '../src/format-value.ts';

describe('value formatting (docs/spec/env.md §4)', () => {
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
