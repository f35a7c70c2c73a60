import { describe, expect, it } from 'vitest';
import { mergeUri } from '../src/index.ts';

const BASE = 'https://edge.shop.example.com:8443/base?tenant=a';

describe('mergeUri', () => {
  it('returns the base when there is no uri', () => {
    expect(mergeUri(BASE, undefined)).toEqual({ ok: true, url: BASE });
  });

  it('keeps every base component for an empty uri', () => {
    expect(mergeUri(BASE, '')).toEqual({ ok: true, url: BASE });
  });

  it('replaces the scheme', () => {
    expect(mergeUri('http://h/p', 'https:')).toEqual({ ok: true, url: 'https://h/p' });
  });

  it('replaces the port and keeps the base host name', () => {
    expect(mergeUri(BASE, '//:9443')).toEqual({
      ok: true,
      url: 'https://edge.shop.example.com:9443/base?tenant=a',
    });
    expect(mergeUri('http://h/p', 'http://:9000')).toEqual({ ok: true, url: 'http://h:9000/p' });
  });

  it('replaces the path rather than appending to it', () => {
    expect(mergeUri(BASE, '/other')).toEqual({
      ok: true,
      url: 'https://edge.shop.example.com:8443/other?tenant=a',
    });
  });

  it('makes a relative path absolute under the base host', () => {
    expect(mergeUri('http://h/base', 'events')).toEqual({ ok: true, url: 'http://h/events' });
  });

  it('replaces the query only when the uri query is non-empty', () => {
    expect(mergeUri(BASE, '?tenant=b')).toEqual({
      ok: true,
      url: 'https://edge.shop.example.com:8443/base?tenant=b',
    });
    expect(mergeUri(BASE, '?')).toEqual({ ok: true, url: BASE });
  });

  it("ignores the uri's userinfo and fragment and keeps the base's", () => {
    expect(mergeUri('http://owner@h/p#keep', '//me@:81/q#drop')).toEqual({
      ok: true,
      url: 'http://owner@h:81/q#keep',
    });
  });

  it('applies every component at once', () => {
    expect(mergeUri('http://h:80/a?x=1', 'https://:443/b?y=2')).toEqual({
      ok: true,
      url: 'https://h:443/b?y=2',
    });
  });

  it('rejects a uri with a host', () => {
    expect(mergeUri(BASE, 'http://other.example.com/x')).toEqual({
      ok: false,
      message: 'URI should not contain a host while also informing a Reference: "http://other.example.com/x"',
    });
  });

  it('rejects an unparsable uri', () => {
    expect(mergeUri(BASE, 'http://:80a')).toEqual({
      ok: false,
      message: 'invalid URI "http://:80a": invalid port "80a": only digits are allowed',
    });
  });

  it('rejects an unparsable base', () => {
    expect(mergeUri('http://[::1', '/x')).toEqual({
      ok: false,
      message: 'resolved reference to "http://[::1" cannot be parsed: unclosed "[" in host "[::1"',
    });
  });
});
