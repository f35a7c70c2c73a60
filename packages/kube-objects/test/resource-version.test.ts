import { describe, expect, it } from 'vitest';
import { compareResourceVersions } from '../src/index.ts';

const sign = (a: string, b: string) => {
  const order = compareResourceVersions(a, b);
  return order === undefined ? undefined : Math.sign(order);
};

describe('compareResourceVersions', () => {
  it('orders integers by value, not as text', () => {
    expect([sign('3150', '3279'), sign('3279', '3150'), sign('3279', '3279')]).toEqual([-1, 1, 0]);
    expect([sign('99', '100'), sign('100', '99'), sign('0', '1')]).toEqual([-1, 1, -1]);
  });

  it('orders integers past 2^53 exactly, with no size assumed', () => {
    expect(sign('9007199254740993', '9007199254740992')).toBe(1);
    expect(sign('123456789012345678901234567890', '123456789012345678901234567891')).toBe(-1);
  });

  it('knows no order for a version that is not an integer in plain digits', () => {
    expect(
      [
        ['x1', 'x2'],
        ['010', '9'],
        ['', '1'],
        ['1', ' 1'],
        ['-1', '1'],
        ['1e3', '1000'],
        ['1.0', '1'],
      ].map(([a, b]) => compareResourceVersions(a!, b!)),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
