import { describe, expect, it } from 'vitest';
import { childName, labelValue, subdomainChildName } from '../src/index.ts';

describe('childName (§4.1)', () => {
  it.each([
    ['mailer', 'orders', 'mailer-orders'],
    [
      'webhooksource',
      'payments-gateway-notifications-from-partner-bank-eu-production',
      'webhooksource-payments-gateway-notifications-from-part-526f9fe2',
    ],
    ['sources.acme', 'orders', 'sources-acme-orders-1ec62930'],
  ])('%s + %s → %s (the spec table)', (registration, instance, expected) => {
    expect(childName(registration, instance)).toBe(expected);
  });

  it('keeps a base of exactly 63 characters', () => {
    const instance = 'x'.repeat(61);
    expect(childName('r', instance)).toBe(`r-${instance}`);
  });

  it('shortens a base of 64 characters to 63', () => {
    expect(childName('r', 'x'.repeat(62))).toBe(`r-${'x'.repeat(52)}-441c5b68`);
  });

  it('shortens a short base that contains a dot, hashing the original base', () => {
    expect(childName('a.b', 'c')).toBe('a-b-c-ab8bb2e3');
  });

  it('strips a dash left at the end of the 54-character prefix', () => {
    expect(childName('a'.repeat(53), 'b'.repeat(20))).toBe(`${'a'.repeat(53)}-af3ec493`);
  });
});

describe('labelValue L(v) (§4.2)', () => {
  it('shortens the spec example', () => {
    expect(labelValue('payments-gateway-notifications-from-partner-bank-eu-production-and-more')).toBe(
      'payments-gateway-notifications-from-partner-bank-eu-pr-11c88332',
    );
  });

  it('keeps values of at most 63 characters, dots included', () => {
    expect(labelValue('z'.repeat(63))).toBe('z'.repeat(63));
    expect(labelValue('sources.acme')).toBe('sources.acme');
  });

  it('shortens a value of 64 characters', () => {
    expect(labelValue('z'.repeat(64))).toBe(`${'z'.repeat(54)}-72996563`);
  });

  it('strips trailing "-", "_" and "." from the prefix', () => {
    expect(labelValue(`${'x'.repeat(51)}.-_${'y'.repeat(20)}`)).toBe(`${'x'.repeat(51)}-82cde2e8`);
  });
});

describe('subdomainChildName (kinds that take DNS-1123 subdomains)', () => {
  it("keeps Go Scoby's name with a dot, where childName must shorten it", () => {
    expect(subdomainChildName('sources.acme', 'orders')).toBe('sources.acme-orders');
    expect(childName('sources.acme', 'orders')).toBe('sources-acme-orders-1ec62930');
  });

  it('keeps a name longer than 63 characters, up to 253', () => {
    const instance = 'x'.repeat(251);
    expect(subdomainChildName('r', instance)).toBe(`r-${instance}`);
    expect(subdomainChildName('r', `${instance}x`)).toBe(childName('r', `${instance}x`));
  });

  it('falls back to childName for what no subdomain may be', () => {
    expect(subdomainChildName('a.', 'b')).toBe(childName('a.', 'b'));
    expect(subdomainChildName('Mailer', 'orders')).toBe(childName('Mailer', 'orders'));
  });
});
