import { describe, expect, it } from 'vitest';
import { parseUriReference, serializeUri, type UriReference } from '../src/index.ts';

describe('serializeUri', () => {
  it('writes scheme "://" host ":" port path "?" query "#" fragment', () => {
    const uri: UriReference = {
      scheme: 'https',
      authority: { host: 'edge.shop.example.com', port: '9443' },
      path: '/base',
      query: 'tenant=b',
      fragment: 'top',
    };
    expect(serializeUri(uri)).toBe('https://edge.shop.example.com:9443/base?tenant=b#top');
  });

  it('prepends "/" to a non-empty path that lacks it', () => {
    expect(serializeUri({ scheme: 'http', authority: { host: 'h' }, path: 'events' })).toBe(
      'http://h/events',
    );
  });

  it('keeps an empty path empty: no trailing "/"', () => {
    expect(serializeUri({ scheme: 'http', authority: { host: 'h' }, path: '', query: 'format=ce' })).toBe(
      'http://h?format=ce',
    );
    expect(serializeUri({ scheme: 'http', authority: { host: 'h' }, path: '' })).toBe('http://h');
  });

  it('writes userinfo and an empty query when present', () => {
    expect(
      serializeUri({ scheme: 'http', authority: { userinfo: 'u:p', host: 'h' }, path: '/', query: '' }),
    ).toBe('http://u:p@h/?');
  });

  it('leaves out absent components, so relative references stay relative', () => {
    expect(serializeUri({ path: 'a/b', query: 'x' })).toBe('a/b?x');
    expect(serializeUri({ scheme: 'mailto', path: 'ops@example.com' })).toBe('mailto:ops@example.com');
  });

  it.each([
    'http://:8080/v1',
    '//:8090',
    'https://',
    '?a=1',
    '/relative',
    'https://user:secret@edge.shop.example.com:8443/base?tenant=a#frag',
    'http://[::1]:9000/x',
    'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default',
  ])('round-trips %j', (text) => {
    const parsed = parseUriReference(text);
    expect(parsed.ok && serializeUri(parsed.uri)).toBe(text);
  });

  it('drops an empty port', () => {
    const parsed = parseUriReference('http://host:/p');
    expect(parsed.ok && serializeUri(parsed.uri)).toBe('http://host/p');
  });
});
