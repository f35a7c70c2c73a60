import { describe, expect, it } from 'vitest';
import { parsePath } from '../src/paths.ts';

describe('parsePath (docs/spec/env.md §2)', () => {
  it.each(['spec.a.b', '$.spec.a.b', '.spec.a.b'])('normalises %s', (written) => {
    expect(parsePath(written, 'spec')).toEqual({
      ok: true,
      segments: ['spec', 'a', 'b'],
      normalized: 'spec.a.b',
    });
  });

  it.each([
    ['spec', 'invalid path "spec": must name a field below "spec"'],
    ['spec..a', 'invalid path "spec..a": empty path segment'],
    ['spec.a.', 'invalid path "spec.a.": empty path segment'],
    ['a.b', 'invalid path "a.b": must start with "spec."'],
    ['$spec.a', 'invalid path "$spec.a": must start with "spec."'],
    ['$..spec.a', 'invalid path "$..spec.a": empty path segment'],
    ['status.x', 'invalid path "status.x": must start with "spec."'],
  ])('rejects %s', (written, message) => {
    expect(parsePath(written, 'spec')).toEqual({ ok: false, message });
  });

  it('parses status paths for statusConfiguration.add', () => {
    expect(parsePath('status.sinkUri', 'status')).toEqual({
      ok: true,
      segments: ['status', 'sinkUri'],
      normalized: 'status.sinkUri',
    });
  });
});
