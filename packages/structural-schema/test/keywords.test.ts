import { describe, expect, it } from 'vitest';
import { pruneAndValidate } from '../src/index.ts';
import { causesAt, invalid } from './support.ts';

describe('enum', () => {
  it('accepts a listed value', () => {
    expect(causesAt('mode', { type: 'string', enum: ['a', 'b'] }, 'b')).toEqual([]);
  });

  it('rejects an unlisted string', () => {
    expect(causesAt('mode', { type: 'string', enum: ['a', 'b'] }, 'x')).toEqual([
      {
        type: 'FieldValueNotSupported',
        field: 'spec.mode',
        message: 'Unsupported value: "x": supported values: "a", "b"',
      },
    ]);
  });

  it('shows non-string allowed values as quoted JSON and a number unquoted', () => {
    expect(causesAt('n', { type: 'integer', enum: [1, 2] }, 3)).toEqual([
      {
        type: 'FieldValueNotSupported',
        field: 'spec.n',
        message: 'Unsupported value: 3: supported values: "1", "2"',
      },
    ]);
    expect(
      causesAt(
        'o',
        { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, enum: [{ b: 1, a: 'x' }] },
        { a: 'y' },
      ),
    ).toEqual([
      {
        type: 'FieldValueNotSupported',
        field: 'spec.o',
        message:
          'Unsupported value: map[string]interface {}{"a":"y"}: supported values: "{\\"a\\":\\"x\\",\\"b\\":1}"',
      },
    ]);
  });

  it('compares objects structurally', () => {
    const schema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, enum: [{ a: 1, b: 2 }] };
    expect(causesAt('o', schema, { b: 2, a: 1 })).toEqual([]);
  });

  it('checks the enum even after a type error', () => {
    expect(causesAt('n', { type: 'integer', enum: [1] }, 'x')).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.n',
        message: 'Invalid value: "string": spec.n in body must be of type integer: "string"',
      },
      {
        type: 'FieldValueNotSupported',
        field: 'spec.n',
        message: 'Unsupported value: "x": supported values: "1"',
      },
    ]);
  });
});

describe('strings', () => {
  it('pattern: accepts a match and rejects a mismatch with the pattern quoted', () => {
    expect(causesAt('name', { type: 'string', pattern: '^[a-z]+$' }, 'abc')).toEqual([]);
    expect(causesAt('name', { type: 'string', pattern: '^[a-z]+$' }, 'ABC')).toEqual([
      invalid('spec.name', 'Invalid value: "ABC": spec.name in body should match \'^[a-z]+$\''),
    ]);
  });

  it('pattern is unanchored unless written with anchors', () => {
    expect(causesAt('name', { type: 'string', pattern: '[0-9]' }, 'ab1cd')).toEqual([]);
  });

  it('maxLength counts characters and reports Too long without the value', () => {
    expect(causesAt('s', { type: 'string', maxLength: 3 }, 'äöü')).toEqual([]);
    expect(causesAt('s', { type: 'string', maxLength: 3 }, 'abcd')).toEqual([
      { type: 'FieldValueTooLong', field: 'spec.s', message: 'Too long: may not be more than 3 bytes' },
    ]);
    expect(causesAt('s', { type: 'string', maxLength: 1 }, 'ab')).toEqual([
      { type: 'FieldValueTooLong', field: 'spec.s', message: 'Too long: may not be more than 1 byte' },
    ]);
  });

  it('minLength', () => {
    expect(causesAt('s', { type: 'string', minLength: 2 }, 'ab')).toEqual([]);
    expect(causesAt('s', { type: 'string', minLength: 2 }, 'a')).toEqual([
      invalid('spec.s', 'Invalid value: "a": spec.s in body should be at least 2 chars long'),
    ]);
  });

  it('quotes bad values like Go, escaping control characters', () => {
    expect(causesAt('s', { type: 'string', minLength: 5 }, 'a"\n\u0001')).toEqual([
      invalid('spec.s', 'Invalid value: "a\\"\\n\\x01": spec.s in body should be at least 5 chars long'),
    ]);
  });

  it('reports every failing string check in order: maxLength, minLength, pattern', () => {
    expect(causesAt('s', { type: 'string', maxLength: 1, pattern: '^x$' }, 'ab')).toEqual([
      { type: 'FieldValueTooLong', field: 'spec.s', message: 'Too long: may not be more than 1 byte' },
      invalid('spec.s', 'Invalid value: "ab": spec.s in body should match \'^x$\''),
    ]);
  });
});

describe('numbers', () => {
  it('minimum (the example message)', () => {
    expect(causesAt('count', { type: 'integer', minimum: 1 }, 1)).toEqual([]);
    expect(causesAt('count', { type: 'integer', minimum: 1 }, 0)).toEqual([
      invalid('spec.count', 'Invalid value: 0: spec.count in body should be greater than or equal to 1'),
    ]);
  });

  it('exclusiveMinimum', () => {
    expect(causesAt('x', { type: 'number', minimum: 1, exclusiveMinimum: true }, 1.5)).toEqual([]);
    expect(causesAt('x', { type: 'number', minimum: 1, exclusiveMinimum: true }, 1)).toEqual([
      invalid('spec.x', 'Invalid value: 1: spec.x in body should be greater than 1'),
    ]);
  });

  it('maximum and exclusiveMaximum', () => {
    expect(causesAt('x', { type: 'integer', maximum: 10 }, 10)).toEqual([]);
    expect(causesAt('x', { type: 'integer', maximum: 10 }, 11)).toEqual([
      invalid('spec.x', 'Invalid value: 11: spec.x in body should be less than or equal to 10'),
    ]);
    expect(causesAt('x', { type: 'integer', maximum: 10, exclusiveMaximum: true }, 10)).toEqual([
      invalid('spec.x', 'Invalid value: 10: spec.x in body should be less than 10'),
    ]);
  });

  it('prints limits as Go float64 (%v) and fractional values as floats', () => {
    expect(causesAt('x', { type: 'integer', maximum: 1000000 }, 1000001)).toEqual([
      invalid('spec.x', 'Invalid value: 1000001: spec.x in body should be less than or equal to 1e+06'),
    ]);
    expect(causesAt('x', { type: 'number', maximum: 0.5 }, 0.75)).toEqual([
      invalid('spec.x', 'Invalid value: 0.75: spec.x in body should be less than or equal to 0.5'),
    ]);
  });

  it('multipleOf, including fractional factors', () => {
    expect(causesAt('x', { type: 'integer', multipleOf: 5 }, 15)).toEqual([]);
    expect(causesAt('x', { type: 'number', multipleOf: 0.1 }, 0.3)).toEqual([]);
    expect(causesAt('x', { type: 'integer', multipleOf: 5 }, 7)).toEqual([
      invalid('spec.x', 'Invalid value: 7: spec.x in body should be a multiple of 5'),
    ]);
    expect(causesAt('x', { type: 'number', multipleOf: 0.5 }, 0.7)).toEqual([
      invalid('spec.x', 'Invalid value: 0.7: spec.x in body should be a multiple of 0.5'),
    ]);
  });

  it('an integer satisfies type number', () => {
    expect(causesAt('x', { type: 'number' }, 3)).toEqual([]);
  });

  it('does not check number keywords on a string', () => {
    expect(causesAt('x', { type: 'integer', minimum: 5 }, 'a')).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.x',
        message: 'Invalid value: "string": spec.x in body must be of type integer: "string"',
      },
    ]);
  });
});

describe('arrays', () => {
  const list = { type: 'array', items: { type: 'string' } };

  it('validates every item with its index in the path', () => {
    expect(
      causesAt(
        'items',
        { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        [{ name: 'a' }, { name: 'b' }, { name: 3 }],
      ),
    ).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.items[2].name',
        message: 'Invalid value: "integer": spec.items[2].name in body must be of type string: "integer"',
      },
    ]);
  });

  it('minItems', () => {
    expect(causesAt('l', { ...list, minItems: 2 }, ['a', 'b'])).toEqual([]);
    expect(causesAt('l', { ...list, minItems: 2 }, ['a'])).toEqual([
      invalid('spec.l', 'Invalid value: 1: spec.l in body should have at least 2 items'),
    ]);
  });

  it('maxItems reports Too many', () => {
    expect(causesAt('l', { ...list, maxItems: 2 }, ['a', 'b'])).toEqual([]);
    expect(causesAt('l', { ...list, maxItems: 2 }, ['a', 'b', 'c'])).toEqual([
      { type: 'FieldValueTooMany', field: 'spec.l', message: 'Too many: 3: must have at most 2 items' },
    ]);
    expect(causesAt('l', { ...list, maxItems: 1 }, ['a', 'b'])).toEqual([
      { type: 'FieldValueTooMany', field: 'spec.l', message: 'Too many: 2: must have at most 1 item' },
    ]);
  });

  it('uniqueItems, comparing objects structurally', () => {
    const objects = {
      type: 'array',
      uniqueItems: true,
      items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    };
    expect(causesAt('l', { ...list, uniqueItems: true }, ['a', 'b'])).toEqual([]);
    expect(causesAt('l', { ...list, uniqueItems: true }, ['a', 'b', 'a'])).toEqual([
      invalid('spec.l', 'Invalid value: "": spec.l in body shouldn\'t contain duplicates'),
    ]);
    expect(
      causesAt('l', objects, [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toEqual([invalid('spec.l', 'Invalid value: "": spec.l in body shouldn\'t contain duplicates')]);
  });

  it('reports item errors before the list errors', () => {
    expect(causesAt('l', { ...list, minItems: 2 }, [1])).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.l[0]',
        message: 'Invalid value: "integer": spec.l[0] in body must be of type string: "integer"',
      },
      invalid('spec.l', 'Invalid value: 1: spec.l in body should have at least 2 items'),
    ]);
  });
});

describe('objects', () => {
  it('required: one Required value per missing property, present nulls aside', () => {
    const schema = {
      type: 'object',
      required: ['a', 'b'],
      properties: { a: { type: 'string' }, b: { type: 'string' } },
    };
    expect(causesAt('o', schema, { a: 'x', b: 'y' })).toEqual([]);
    expect(causesAt('o', schema, {})).toEqual([
      { type: 'FieldValueRequired', field: 'spec.o.a', message: 'Required value' },
      { type: 'FieldValueRequired', field: 'spec.o.b', message: 'Required value' },
    ]);
  });

  it('minProperties, which ends the object validation', () => {
    const schema = {
      type: 'object',
      minProperties: 2,
      required: ['z'],
      additionalProperties: { type: 'string' },
    };
    expect(causesAt('o', schema, { a: 'x', z: 'y' })).toEqual([]);
    expect(causesAt('o', schema, { a: 1 })).toEqual([
      invalid('spec.o', 'Invalid value: 1: spec.o in body should have at least 2 properties'),
    ]);
  });

  it('maxProperties reports Too many (with "items")', () => {
    const schema = { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } };
    expect(causesAt('o', schema, { a: 'x' })).toEqual([]);
    expect(causesAt('o', schema, { a: 'x', b: 'y' })).toEqual([
      { type: 'FieldValueTooMany', field: 'spec.o', message: 'Too many: 2: must have at most 1 item' },
    ]);
  });

  it('additionalProperties schema validates every map value', () => {
    const schema = { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } };
    expect(causesAt('limits', schema, { cpu: 1, memory: -1 })).toEqual([
      invalid(
        'spec.limits.memory',
        'Invalid value: -1: spec.limits.memory in body should be greater than or equal to 0',
      ),
    ]);
  });

  it('additionalProperties: false keeps the keys and forbids them', () => {
    const schema = { type: 'object', additionalProperties: false };
    const root = { type: 'object', properties: { o: schema } };
    expect(pruneAndValidate(root, { o: { x: 1 } }, { root: false })).toEqual({
      value: { o: { x: 1 } },
      causes: [invalid('o', 'Invalid value: "x": o.x in body is a forbidden property')],
    });
  });

  it('additionalProperties: true keeps the keys but prunes below them', () => {
    const root = { type: 'object', properties: { o: { type: 'object', additionalProperties: true } } };
    expect(pruneAndValidate(root, { o: { n: 1, m: { deep: true } } }, { root: false })).toEqual({
      value: { o: { n: 1, m: {} } },
      causes: [],
    });
  });

  it('renders object bad values with Go %#v', () => {
    const schema = {
      type: 'object',
      properties: { m: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, enum: ['a'] } },
    };
    expect(causesAt('o', schema, { m: { b: [1, 'x', null, true], a: 1.5 } })).toEqual([
      {
        type: 'FieldValueNotSupported',
        field: 'spec.o.m',
        message:
          'Unsupported value: map[string]interface {}{"a":1.5, "b":[]interface {}{1, "x", interface {}(nil), true}}: supported values: "a"',
      },
    ]);
  });
});
