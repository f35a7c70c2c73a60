import { describe, expect, it } from 'vitest';
import { causesAt, typeInvalid } from './support.ts';

const check = (format: string, value: string) => causesAt('v', { type: 'string', format }, value);

describe('formats the API server checks', () => {
  it.each([
    ['date-time', ['2024-02-29T10:00:00Z', '2024-01-01T23:59:59.123+02:00', '2024-01-01t00:00:00z']],
    ['datetime', ['2024-01-01T00:00:00Z']],
    ['date', ['2024-02-29', '1999-12-31']],
    ['uuid', ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000']],
    ['uuid3', ['123e4567-e89b-32d3-a456-426614174000']],
    ['uuid4', ['123e4567-e89b-42d3-a456-426614174000']],
    ['uuid5', ['123e4567-e89b-52d3-8456-426614174000']],
    ['byte', ['aGVsbG8=', 'aGVsbG8h', '', 'aGVs\nbG8=']],
    ['hostname', ['example.com', 'localhost', 'a-b.example.org']],
    ['ipv4', ['10.0.0.1', '255.255.255.255']],
    ['ipv6', ['::1', '2001:db8::8a2e:370:7334', '::ffff:10.0.0.1', '1:2:3:4:5:6:7:8']],
    ['cidr', ['10.0.0.0/8', '2001:db8::/32', '0.0.0.0/0']],
    ['mac', ['01:23:45:67:89:ab', '01-23-45-67-89-AB', '0123.4567.89ab', '01:23:45:67:89:ab:cd:ef']],
    ['email', ['a@example.com', 'first.last+tag@sub.example.org', 'Alice <alice@example.com>']],
    ['uri', ['https://example.com/path?q=1', 'mailto:a@b.c', '/absolute/path', 'http://[::1]:8080/']],
    ['duration', ['1h30m', '250ms', '0', '3 days', '5 minutes']],
    ['hexcolor', ['#fff', 'A0B1C2']],
    ['rgbcolor', ['rgb(255, 0, 10)']],
    ['ssn', ['123-45-6789']],
    ['bsonobjectid', ['507f1f77bcf86cd799439011']],
    ['password', ['anything at all']],
  ])('%s accepts valid values', (format, values) => {
    for (const value of values) expect(check(format, value)).toEqual([]);
  });

  it.each([
    [
      'date-time',
      [
        '2024-02-30T10:00:00Z',
        '2024-01-01 10:00:00Z',
        '2024-01-01T24:00:00Z',
        '2024-01-01T10:00:00',
        'yesterday',
      ],
    ],
    ['date', ['2023-02-29', '2024-13-01', '24-01-01', '2024-1-01']],
    ['uuid', ['123e4567-e89b-12d3-a456-42661417400', 'not-a-uuid']],
    ['uuid4', ['123e4567-e89b-12d3-a456-426614174000']],
    ['byte', ['aGVsbG8', 'a*==']],
    ['hostname', ['-bad.example.com', 'under_score.com', `${'a'.repeat(64)}.com`]],
    ['ipv4', ['256.0.0.1', '10.0.0', '010.0.0.1', '::1']],
    ['ipv6', ['1:2:3:4:5:6:7:8:9', '1::2::3', '10.0.0.1', '12345::']],
    ['cidr', ['10.0.0.0', '10.0.0.0/33', '::/129']],
    ['mac', ['01:23:45:67:89', '01:23-45:67:89:ab', 'zz:23:45:67:89:ab']],
    ['email', ['no-at-sign', 'a@', '@b.c']],
    ['uri', ['relative/path', '', 'http://host:port/', 'http://exa mple.com/']],
    ['duration', ['forever', '1x']],
    ['hexcolor', ['#ffff']],
    ['rgbcolor', ['rgb(256,0,0)']],
    ['ssn', ['123456789x']],
    ['bsonobjectid', ['507f1f77bcf86cd79943901']],
  ])('%s rejects invalid values with a type error naming the format', (format, values) => {
    for (const value of values) {
      const quoted = JSON.stringify(value);
      expect(check(format, value)).toEqual([
        typeInvalid(
          'spec.v',
          `Invalid value: ${quoted}: spec.v in body must be of type ${format}: ${quoted}`,
        ),
      ]);
    }
  });

  it('ignores formats the server does not know', () => {
    expect(check('k8s-name', '!!')).toEqual([]);
    expect(check('int64', 'x')).toEqual([]);
  });
});
