import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeUri, parseUriReference, serializeUri } from '../src/index.ts';

const webUrl = fc.webUrl({
  authoritySettings: {
    withIPv4: true,
    withIPv6: true,
    withIPv4Extended: false,
    withPort: true,
    withUserInfo: true,
  },
  withQueryParameters: true,
  withFragments: true,
});

/** `[scheme:]//:port[path][?query]`: the empty-host forms a `uri` beside a `ref` uses. */
const emptyHostUri = fc
  .record({
    scheme: fc.option(fc.constantFrom('http', 'https'), { nil: undefined }),
    port: fc.option(fc.nat(65535).map(String), { nil: undefined }),
    path: fc
      .array(fc.webSegment(), { maxLength: 3 })
      .map((segments) => segments.map((s) => `/${s}`).join('')),
    query: fc.option(fc.webQueryParameters(), { nil: undefined }),
  })
  .map(({ scheme, port, path, query }) => ({
    text: `${scheme === undefined ? '' : `${scheme}:`}//${port === undefined ? '' : `:${port}`}${path}${query === undefined ? '' : `?${query}`}`,
    scheme,
    port,
    path,
    query,
  }));

describe('URI properties', () => {
  it('parses every web URL and serialises it back unchanged', () => {
    fc.assert(
      fc.property(webUrl, (url) => {
        const parsed = parseUriReference(url);
        expect(parsed.ok && serializeUri(parsed.uri)).toBe(url);
      }),
    );
  });

  it('merges an empty-host uri by taking each of its non-empty components', () => {
    const base = 'http://owner@collector.shop.svc.cluster.local:80/base?x=1#keep';
    fc.assert(
      fc.property(emptyHostUri, ({ text, scheme, port, path, query }) => {
        const expected =
          `${scheme ?? 'http'}://owner@collector.shop.svc.cluster.local:${port ?? '80'}` +
          `${path === '' ? '/base' : path}?${query === undefined || query === '' ? 'x=1' : query}#keep`;
        expect(mergeUri(base, text)).toEqual({ ok: true, url: expected });
      }),
    );
  });
});
