import { describe, expect, it } from 'vitest';
import { parseUriReference, type UriReference } from '../src/index.ts';

describe('parseUriReference', () => {
  it.each<[string, UriReference]>([
    ['http://:8080/v1', { scheme: 'http', authority: { host: '', port: '8080' }, path: '/v1' }],
    ['//:8090', { authority: { host: '', port: '8090' }, path: '' }],
    ['https://', { scheme: 'https', authority: { host: '' }, path: '' }],
    ['?a=1', { path: '', query: 'a=1' }],
    ['?', { path: '', query: '' }],
    ['#top', { path: '', fragment: 'top' }],
    ['', { path: '' }],
    ['/relative', { path: '/relative' }],
    ['events/in', { path: 'events/in' }],
    ['./a:b', { path: './a:b' }],
    ['mailto:ops@example.com', { scheme: 'mailto', path: 'ops@example.com' }],
    [
      'https://user:secret@edge.shop.example.com:8443/base?tenant=a#frag',
      {
        scheme: 'https',
        authority: { userinfo: 'user:secret', host: 'edge.shop.example.com', port: '8443' },
        path: '/base',
        query: 'tenant=a',
        fragment: 'frag',
      },
    ],
    [
      'http://h?q=/a?b#c?/d',
      { scheme: 'http', authority: { host: 'h' }, path: '', query: 'q=/a?b', fragment: 'c?/d' },
    ],
    ['http://host:/p', { scheme: 'http', authority: { host: 'host' }, path: '/p' }],
    ['http://192.0.2.1:80', { scheme: 'http', authority: { host: '192.0.2.1', port: '80' }, path: '' }],
    ['http://[::1]:9000/x', { scheme: 'http', authority: { host: '[::1]', port: '9000' }, path: '/x' }],
    ['http://[2001:db8::7]', { scheme: 'http', authority: { host: '[2001:db8::7]' }, path: '' }],
    ['http://[1:2:3:4:5:6:7:8]/', { scheme: 'http', authority: { host: '[1:2:3:4:5:6:7:8]' }, path: '/' }],
    ['http://[::ffff:192.0.2.1]/', { scheme: 'http', authority: { host: '[::ffff:192.0.2.1]' }, path: '/' }],
    ['http://[::]', { scheme: 'http', authority: { host: '[::]' }, path: '' }],
    ['http://[v1.fe80::a+en1]', { scheme: 'http', authority: { host: '[v1.fe80::a+en1]' }, path: '' }],
    ['http://a%20b/%41', { scheme: 'http', authority: { host: 'a%20b' }, path: '/%41' }],
    ['svc+h2.x-y:opaque', { scheme: 'svc+h2.x-y', path: 'opaque' }],
  ])('parses %j', (text, uri) => {
    expect(parseUriReference(text)).toEqual({ ok: true, uri });
  });

  it.each([
    ['http://host:abc/', 'invalid port "abc": only digits are allowed'],
    ['http://host:80:90/', 'invalid port "80:90": only digits are allowed'],
    ['//:http', 'invalid port "http": only digits are allowed'],
    ['http://[::1', 'unclosed "[" in host "[::1"'],
    ['http://[::1/path', 'unclosed "[" in host "[::1"'],
    ['http://[::1]x/', 'unexpected "x" after IP literal [::1]'],
    ['http://[::g]/', 'invalid IP literal "[::g]"'],
    ['http://[1:2:3:4:5:6:7]/', 'invalid IP literal "[1:2:3:4:5:6:7]"'],
    ['http://[1:2:3:4:5:6:7:8:9]/', 'invalid IP literal "[1:2:3:4:5:6:7:8:9]"'],
    ['http://[1::2::3]/', 'invalid IP literal "[1::2::3]"'],
    ['http://[:::1]/', 'invalid IP literal "[:::1]"'],
    ['http://[::1.2.3.256]/', 'invalid IP literal "[::1.2.3.256]"'],
    ['http://[::1.2.3.4:5]/', 'invalid IP literal "[::1.2.3.4:5]"'],
    ['http://[]/', 'invalid IP literal "[]"'],
    ['http://ho[st/', 'invalid character "[" in host'],
    ['http://exa mple.com/', 'invalid character " " in host'],
    ['http://u@v@host/', 'invalid character "@" in userinfo'],
    ['http://host/a b', 'invalid character " " in path'],
    ['http://host/a\nb', 'invalid character "\\n" in path'],
    ['http://host/%zz', 'invalid percent-encoding "%zz" in path'],
    ['http://host/%4', 'invalid percent-encoding "%4" in path'],
    ['http://host/?q=<x>', 'invalid character "<" in query'],
    ['http://host/#a#b', 'invalid character "#" in fragment'],
    ['1http://x', 'invalid scheme "1http"'],
    ['ht_tp://x', 'invalid scheme "ht_tp"'],
    [':8080/x', 'the first path segment of a relative reference cannot contain ":"'],
  ])('rejects %j', (text, reason) => {
    expect(parseUriReference(text)).toEqual({ ok: false, reason });
  });
});
