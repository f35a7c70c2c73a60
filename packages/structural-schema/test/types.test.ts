import { describe, expect, it } from 'vitest';
import { pruneAndValidate } from '../src/index.ts';
import { causesAt, typeInvalid } from './support.ts';

describe('type', () => {
  it.each([
    ['string', 'x'],
    ['integer', 3],
    ['number', 1.5],
    ['number', 2],
    ['boolean', false],
    ['object', {}],
    ['array', []],
  ])('accepts a %s value', (type, value) => {
    expect(
      causesAt('f', { type, ...(type === 'array' ? { items: { type: 'string' } } : {}) }, value),
    ).toEqual([]);
  });

  it.each([
    ['integer', 'string', '"3"'],
    ['integer', 'number', 1.5],
    ['string', 'integer', 3],
    ['string', 'boolean', true],
    ['boolean', 'string', 'true'],
    ['object', 'array', []],
    ['array', 'object', {}],
    ['number', 'string', 'NaN'],
  ])('rejects for type %s a %s value', (type, actual, value) => {
    expect(causesAt('f', { type, items: { type: 'string' } }, value)).toEqual([
      typeInvalid(
        'spec.f',
        `Invalid value: "${actual}": spec.f in body must be of type ${type}: "${actual}"`,
      ),
    ]);
  });

  it('writes the example message of a string given for an integer', () => {
    expect(causesAt('replicas', { type: 'integer' }, 'three')).toEqual([
      {
        type: 'FieldValueTypeInvalid',
        field: 'spec.replicas',
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      },
    ]);
  });

  it('accepts no type at all (any value)', () => {
    expect(causesAt('f', {}, 'x')).toEqual([]);
  });
});

describe('nullable and null values', () => {
  it('drops a null of a non-nullable property without default (as if absent)', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
    expect(pruneAndValidate(schema, { a: null, b: 'x' }, { root: false })).toEqual({
      value: { b: 'x' },
      causes: [],
    });
  });

  it('reports a dropped null of a required property as Required value', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'string' } } };
    expect(pruneAndValidate(schema, { a: null }, { root: false })).toEqual({
      value: {},
      causes: [{ type: 'FieldValueRequired', field: 'a', message: 'Required value' }],
    });
  });

  it('keeps a null of a nullable property', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', nullable: true } } };
    expect(pruneAndValidate(schema, { a: null }, { root: false })).toEqual({
      value: { a: null },
      causes: [],
    });
  });

  it('replaces a null of a non-nullable defaulted property by the default', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', default: 'd' } } };
    expect(pruneAndValidate(schema, { a: null }, { root: false })).toEqual({ value: { a: 'd' }, causes: [] });
  });

  it('rejects a null list item of non-nullable type', () => {
    expect(causesAt('items', { type: 'array', items: { type: 'string' } }, ['a', null])).toEqual([
      typeInvalid(
        'spec.items[1]',
        'Invalid value: "null": spec.items[1] in body must be of type string: "null"',
      ),
    ]);
  });

  it('accepts a null list item of nullable type', () => {
    expect(causesAt('items', { type: 'array', items: { type: 'string', nullable: true } }, [null])).toEqual(
      [],
    );
  });

  it('rejects a null with an enum even when nullable, printing the bad value as "null"', () => {
    expect(
      causesAt('items', { type: 'array', items: { type: 'string', nullable: true, enum: ['a'] } }, [null]),
    ).toEqual([
      {
        type: 'FieldValueNotSupported',
        field: 'spec.items[0]',
        message: 'Unsupported value: "null": supported values: "a"',
      },
    ]);
  });

  it('drops null map values of a non-nullable additionalProperties schema', () => {
    const schema = {
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: { type: 'string' } } },
    };
    expect(pruneAndValidate(schema, { m: { a: null, b: 'x' } }, { root: false }).value).toEqual({
      m: { b: 'x' },
    });
  });
});

describe('x-kubernetes-int-or-string', () => {
  const schema = { 'x-kubernetes-int-or-string': true };

  it.each([[8080], ['http']])('accepts %s', (value) => {
    expect(causesAt('port', schema, value)).toEqual([]);
  });

  it('rejects a boolean, naming both types', () => {
    expect(causesAt('port', schema, true)).toEqual([
      typeInvalid(
        'spec.port',
        'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      ),
    ]);
  });

  it('rejects a fractional number', () => {
    expect(causesAt('port', schema, 1.5)).toEqual([
      typeInvalid(
        'spec.port',
        'Invalid value: "number": spec.port in body must be of type integer,string: "number"',
      ),
    ]);
  });

  it('validates the anyOf controller-gen adds to it', () => {
    const withAnyOf = { ...schema, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    expect(causesAt('port', withAnyOf, 'http')).toEqual([]);
    expect(causesAt('port', withAnyOf, 80)).toEqual([]);
  });
});

describe('format on a non-string value', () => {
  it('names the format and the inferred Go format, like go-openapi', () => {
    expect(causesAt('when', { type: 'string', format: 'date-time' }, 5)).toEqual([
      typeInvalid(
        'spec.when',
        'Invalid value: "int64": spec.when in body must be of type date-time: "int64"',
      ),
    ]);
    expect(causesAt('when', { type: 'string', format: 'date-time' }, 0.5)).toEqual([
      typeInvalid(
        'spec.when',
        'Invalid value: "double": spec.when in body must be of type date-time: "double"',
      ),
    ]);
  });

  it('ignores formats the server strips (int32 is not range-checked)', () => {
    expect(causesAt('n', { type: 'integer', format: 'int32' }, 2 ** 40)).toEqual([]);
  });
});
