import { describe, expect, it } from 'vitest';
import { parseFieldSelector } from '../../src/selectors/index.ts';

const pod = {
  metadata: { name: 'web-1', namespace: 'prod' },
  spec: { nodeName: 'node-a', replicas: 3, paused: false },
  status: { phase: 'Running' },
};

function matches(text: string, supported?: string[], object: Record<string, unknown> = pod): boolean {
  const parsed = parseFieldSelector(text, supported);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.matches(object);
}

const errorOf = (text: string, supported?: string[]): string | undefined => {
  const parsed = parseFieldSelector(text, supported);
  return parsed.ok ? undefined : parsed.message;
};

describe('parseFieldSelector', () => {
  it.each([
    ['', true],
    ['metadata.name=web-1', true],
    ['metadata.name==web-1', true],
    ['metadata.name=web-2', false],
    ['metadata.name!=web-2', true],
    ['metadata.name!=web-1', false],
    ['metadata.namespace=prod', true],
    ['metadata.name=web-1,metadata.namespace=prod', true],
    ['metadata.name=web-1,metadata.namespace=dev', false],
    ['metadata.name=web-1,', true],
  ])('%j → %s', (text, expected) => {
    expect(matches(text)).toBe(expected);
  });

  it('supports the given field paths, printing numbers and booleans', () => {
    expect(matches('spec.nodeName=node-a', ['spec.nodeName'])).toBe(true);
    expect(matches('status.phase!=Running', ['status.phase'])).toBe(false);
    expect(matches('spec.replicas=3', ['spec.replicas'])).toBe(true);
    expect(matches('spec.paused=false', ['spec.paused'])).toBe(true);
  });

  it('an absent field equals the empty string', () => {
    expect(matches('metadata.namespace=', [], { metadata: { name: 'cluster-wide' } })).toBe(true);
    expect(matches('spec.missing!=x', ['spec.missing'])).toBe(true);
  });

  it('unescapes \\, \\= and \\\\ in values', () => {
    const object = { metadata: { name: 'a,b=c\\d' } };
    expect(matches('metadata.name=a\\,b\\=c\\\\d', [], object)).toBe(true);
  });

  it.each([
    ['spec.x=1', 'field label not supported: spec.x'],
    ['metadata.name = x', 'field label not supported: metadata.name '],
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['metadata.name=a,oops', "invalid selector: 'metadata.name=a,oops'; can't understand 'oops'"],
    ['metadata.name=a\\b', 'invalid field selector: invalid escape sequence: \\b'],
    ['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
    ['metadata.name=a=b', 'invalid field selector: unescaped character in value: 61'],
  ])('%j → %s', (text, message) => {
    expect(errorOf(text)).toBe(message);
  });
});
