/**
 * Label selector text (`a=b,c in (x,y),!d`) parsed like labels.Parse, with its error messages,
 * e.g. `unable to parse requirement: found '', expected: in, notin, =, ==, !=, gt, lt`.
 */
import { aggregateText, WHOLE_OBJECT } from '@scoby/structural-schema';
import { tokenize, type Token, type TokenKind } from './label-lexer.ts';
import { labelKeyError, requirementErrors, type Operator, type Requirement } from './requirement.ts';

class SyntaxFailure extends Error {}

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private position = 0;
  private readonly tokens: Token[];

  constructor(text: string) {
    this.tokens = tokenize(text);
  }

  /** In value position the keywords `in` and `notin` are plain identifiers. */
  private peek(asValue = true): Token {
    const token = this.tokens[this.position] ?? { kind: 'end', literal: '' };
    return asValue && (token.kind === 'in' || token.kind === 'notin')
      ? { kind: 'identifier', literal: token.literal }
      : token;
  }

  private next(asValue = true): Token {
    const token = this.peek(asValue);
    if (token.kind !== 'end') this.position += 1;
    return token;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { kind, literal } = this.peek();
      if (kind === 'end') return requirements;
      if (kind !== 'identifier' && kind !== '!') {
        throw new SyntaxFailure(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.requirement());
      const after = this.next();
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',')
        throw new SyntaxFailure(`found '${after.literal}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.kind !== 'identifier' && following.kind !== '!') {
        throw new SyntaxFailure(`found '${following.literal}', expected: identifier after ','`);
      }
    }
  }

  private requirement(): Requirement {
    try {
      const { key, unary } = this.keyAndUnaryOperator();
      if (unary !== undefined) return this.checked(key, unary, []);
      const operator = this.operator();
      const values = operator === 'in' || operator === 'notin' ? this.valueSet() : this.exactValue();
      return this.checked(key, operator, [...new Set(values)].sort());
    } catch (error) {
      if (error instanceof SyntaxFailure)
        throw new SyntaxFailure(`unable to parse requirement: ${error.message}`);
      throw error;
    }
  }

  private checked(key: string, operator: Operator, values: string[]): Requirement {
    const causes = requirementErrors(key, operator, values);
    if (causes.length > 0) throw new SyntaxFailure(aggregateText(causes));
    return { key, operator, values };
  }

  private keyAndUnaryOperator(): { key: string; unary: Operator | undefined } {
    let token = this.next();
    const negated = token.kind === '!';
    if (negated) token = this.next();
    if (token.kind !== 'identifier')
      throw new SyntaxFailure(`found '${token.literal}', expected: identifier`);
    const keyError = labelKeyError(token.literal, WHOLE_OBJECT);
    if (keyError !== undefined) throw new SyntaxFailure(aggregateText([keyError]));
    const following = this.peek().kind;
    if (negated) return { key: token.literal, unary: '!' };
    return { key: token.literal, unary: following === 'end' || following === ',' ? 'exists' : undefined };
  }

  private operator(): Operator {
    const { kind, literal } = this.next(false);
    const operators: Partial<Record<TokenKind, Operator>> = {
      in: 'in',
      notin: 'notin',
      '=': '=',
      '==': '==',
      '!=': '!=',
      gt: 'gt',
      lt: 'lt',
    };
    const operator = operators[kind];
    if (operator === undefined) throw new SyntaxFailure(`found '${literal}', expected: ${BINARY_OPERATORS}`);
    return operator;
  }

  /** `(a,b)`; empty members (`()`, `(a,)`, `(,a)`) stand for the empty value. */
  private valueSet(): string[] {
    const open = this.next();
    if (open.kind !== '(') throw new SyntaxFailure(`found '${open.literal}' expected: '('`);
    const first = this.peek();
    if (first.kind === ')') {
      this.next();
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== ',') {
      throw new SyntaxFailure(`found '${first.literal}', expected: ',', ')' or identifier`);
    }
    const values = this.identifierList();
    const close = this.next();
    if (close.kind !== ')') throw new SyntaxFailure(`found '${first.literal}', expected: ')'`);
    return values;
  }

  private identifierList(): string[] {
    const values: string[] = [];
    for (;;) {
      const token = this.next();
      if (token.kind === 'identifier') {
        values.push(token.literal);
        const following = this.peek();
        if (following.kind === ')') return values;
        if (following.kind !== ',')
          throw new SyntaxFailure(`found '${following.literal}', expected: ',' or ')'`);
      } else if (token.kind === ',') {
        if (values.length === 0) values.push('');
        const following = this.peek().kind;
        if (following === ')') return [...values, ''];
        if (following === ',') {
          this.next();
          values.push('');
        }
      } else {
        throw new SyntaxFailure(`found '${token.literal}', expected: ',', or identifier`);
      }
    }
  }

  private exactValue(): string[] {
    const following = this.peek().kind;
    if (following === 'end' || following === ',') return [''];
    const token = this.next();
    if (token.kind !== 'identifier')
      throw new SyntaxFailure(`found '${token.literal}', expected: identifier`);
    return [token.literal];
  }
}

/** The requirements of a selector text, or labels.Parse's error message. */
export function parseRequirements(
  text: string,
): { ok: true; requirements: Requirement[] } | { ok: false; message: string } {
  try {
    return { ok: true, requirements: new Parser(text).parse() };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, message: error.message };
    throw error;
  }
}
