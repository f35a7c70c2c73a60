import { describe, expect, it } from 'vitest';
import { JsonTokenCounter } from '../src/json-tokens.ts';

function tokensOf(...chunks: string[]): number {
  const counter = new JsonTokenCounter();
  for (const chunk of chunks) counter.count(Buffer.from(chunk));
  return counter.tokens;
}

describe('JsonTokenCounter', () => {
  it('counts every {, [, , and : outside strings', () => {
    expect(tokensOf('{"a":[1,2,{}],"b":{"c":null}}')).toBe(10);
    expect(tokensOf('[{},{},{}]')).toBe(6);
    expect(tokensOf('"plain"')).toBe(0);
  });

  it('skips structural characters inside strings, escaped quotes included', () => {
    expect(tokensOf('{"k{[,:":"v,:\\"{[]","x":"\\\\"}')).toBe(4);
  });

  it('keeps its place across chunks, even inside an escape', () => {
    const text = '{"a":"x\\",[{","b":[1,2]}';
    const whole = tokensOf(text);
    expect(whole).toBe(6);
    for (let cut = 1; cut < text.length; cut++) {
      expect(tokensOf(text.slice(0, cut), text.slice(cut))).toBe(whole);
    }
  });

  it('reads multi-byte UTF-8 without confusing its bytes with structure', () => {
    expect(tokensOf('{"é":"日本,語","😀":[1]}')).toBe(5);
  });
});
