import { describe, expect, it } from 'vitest';
import { serviceUrl } from '../src/index.ts';

describe('serviceUrl (docs/spec/address.md §2, docs/spec/children-and-status.md §8.7)', () => {
  it('omits port 80 and no port, writes any other', () => {
    expect(serviceUrl('mailer-orders', 'shop', 'cluster.local', 80)).toBe(
      'http://mailer-orders.shop.svc.cluster.local',
    );
    expect(serviceUrl('mailer-orders', 'shop', 'cluster.local')).toBe(
      'http://mailer-orders.shop.svc.cluster.local',
    );
    expect(serviceUrl('mailer-orders', 'shop', 'cluster.local', 8080)).toBe(
      'http://mailer-orders.shop.svc.cluster.local:8080',
    );
    expect(serviceUrl('a', 'b', 'corp.example')).toBe('http://a.b.svc.corp.example');
  });
});
