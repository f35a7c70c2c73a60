import { describe, expect, it } from 'vitest';
import { parseUriReference } from '../src/uri-reference.ts';

describe('parseUriReference (address.md §4)', () => {
  it.each([
    ['http://:8080/v1', { scheme: 'http', host: '', port: '8080', path: '/v1' }],
    ['//:8090', { host: '', port: '8090', path: '' }],
    ['https://', { scheme: 'https', host: '', path: '' }],
    ['?a=1', { path: '', query: 'a=1' }],
    ['/relative', { path: '/relative' }],
    [
      'https://user:pw@api.example.net:8443/in?x=1#top',
      {
        scheme: 'https',
        userinfo: 'user:pw',
        host: 'api.example.net',
        port: '8443',
        path: '/in',
        query: 'x=1',
        fragment: 'top',
      },
    ],
    ['http://[::1]:8080/v1', { scheme: 'http', host: '[::1]', port: '8080', path: '/v1' }],
    ['http://[::1]', { scheme: 'http', host: '[::1]', path: '' }],
    ['http://host:', { scheme: 'http', host: 'host', port: '', path: '' }],
    ['http://a%20b/', { scheme: 'http', host: 'a%20b', path: '/' }],
    ['ftp://files.example.com/x', { scheme: 'ftp', host: 'files.example.com', path: '/x' }],
  ])('parses %s', (text, uri) => {
    expect(parseUriReference(text)).toEqual({ ok: true, uri });
  });

  it.each([
    ['http://[::1', 'missing "]" after IP literal host'],
    ['http://host:abc/v1', 'invalid port "abc"'],
    ['http://a:b:c', 'invalid port "b:c"'],
    ['http://[::1]x', 'unexpected "x" after IP literal host'],
    ['http://[zz]', 'invalid IP literal host "[zz]"'],
    ['http://ho]st', '"[" and "]" may only enclose an IP literal host'],
    ['http://host/a[0]', '"[" and "]" may only enclose an IP literal host'],
    ['http://exa mple.com', 'invalid character " "'],
    ['http://example.com/é', 'invalid character "é"'],
    ['http://example.com/%zz', '"%" must be followed by two hexadecimal digits'],
    ['1http://example.com', 'invalid scheme "1http"'],
    ['http://us[er@host', 'invalid user information "us[er"'],
  ])('rejects %s', (text, reason) => {
    expect(parseUriReference(text)).toEqual({ ok: false, reason });
  });
});
