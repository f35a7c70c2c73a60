import { describe, expect, it } from 'vitest';
import { isPlainObject, jsonTypeName } from '../src/index.ts';

describe('isPlainObject', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [null, false],
    [[], false],
    ['{}', false],
    [1, false],
    [undefined, false],
  ])('%j → %s', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});

describe('jsonTypeName', () => {
  it.each([
    [null, 'null'],
    [[1], 'array'],
    [{}, 'object'],
    ['x', 'string'],
    [1.5, 'number'],
    [false, 'boolean'],
  ])('names %j %s', (value, expected) => {
    expect(jsonTypeName(value)).toBe(expected);
  });
});
