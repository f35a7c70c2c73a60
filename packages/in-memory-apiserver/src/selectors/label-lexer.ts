/** The tokens of label selector text (k8s.io/apimachinery/pkg/labels Lexer). */

export type TokenKind =
  'identifier' | 'in' | 'notin' | '=' | '==' | '!=' | '!' | '(' | ')' | ',' | 'gt' | 'lt' | 'end';

export interface Token {
  kind: TokenKind;
  literal: string;
}

const SYMBOLS: Record<string, TokenKind> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  '!': '!',
  '(': '(',
  ')': ')',
  ',': ',',
  '>': 'gt',
  '<': 'lt',
};
const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (WHITESPACE.has(ch)) {
      i += 1;
    } else if (SPECIAL.has(ch)) {
      // The longest run of symbol characters that is still an operator; each one alone is one.
      let end = i + 1;
      while (
        end < text.length &&
        SPECIAL.has(text[end] ?? '') &&
        SYMBOLS[text.slice(i, end + 1)] !== undefined
      )
        end += 1;
      const literal = text.slice(i, end);
      tokens.push({ kind: SYMBOLS[literal] as TokenKind, literal });
      i = end;
    } else {
      let end = i;
      while (end < text.length && !WHITESPACE.has(text[end] ?? '') && !SPECIAL.has(text[end] ?? '')) end += 1;
      const literal = text.slice(i, end);
      tokens.push({ kind: literal === 'in' || literal === 'notin' ? literal : 'identifier', literal });
      i = end;
    }
  }
  tokens.push({ kind: 'end', literal: '' });
  return tokens;
}
