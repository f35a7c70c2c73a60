import { describe, expect, it } from 'vitest';
import { causesAt, invalid } from './support.ts';

const required = (field: string) => ({ type: 'FieldValueRequired', field, message: 'Required value' });
const object = (extra: object) => ({
  type: 'object',
  properties: { a: { type: 'string' }, b: { type: 'string' } },
  ...extra,
});

describe('anyOf', () => {
  const schema = object({ anyOf: [{ required: ['a'] }, { required: ['b'] }] });

  it('passes when one alternative validates', () => {
    expect(causesAt('s', schema, { b: 'x' })).toEqual([]);
  });

  it('fails on a nil path with the errors of the closest alternative', () => {
    expect(causesAt('s', schema, {})).toEqual([
      invalid('<nil>', 'Invalid value: "": "spec.s" must validate at least one schema (anyOf)'),
      required('spec.s.a'),
    ]);
  });
});

describe('oneOf', () => {
  const schema = object({ oneOf: [{ required: ['a'] }, { required: ['b'] }] });

  it('passes when exactly one alternative validates', () => {
    expect(causesAt('s', schema, { a: 'x' })).toEqual([]);
  });

  it('fails when none validates', () => {
    expect(causesAt('s', schema, {})).toEqual([
      invalid(
        '<nil>',
        'Invalid value: "": "spec.s" must validate one and only one schema (oneOf). Found none valid',
      ),
      required('spec.s.a'),
    ]);
  });

  it('fails when several validate', () => {
    expect(causesAt('s', schema, { a: 'x', b: 'y' })).toEqual([
      invalid(
        '<nil>',
        'Invalid value: "": "spec.s" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      ),
    ]);
  });
});

describe('allOf', () => {
  const schema = { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 5 }] };

  it('passes when all validate', () => {
    expect(causesAt('n', schema, 3)).toEqual([]);
  });

  it('fails with each failing schema, then the summary', () => {
    expect(causesAt('n', schema, 9)).toEqual([
      invalid('spec.n', 'Invalid value: 9: spec.n in body should be less than or equal to 5'),
      invalid('<nil>', 'Invalid value: "": "spec.n" must validate all the schemas (allOf)'),
    ]);
  });

  it('says when none validated', () => {
    expect(causesAt('n', { type: 'integer', allOf: [{ minimum: 10 }, { minimum: 20 }] }, 1)).toEqual([
      invalid('spec.n', 'Invalid value: 1: spec.n in body should be greater than or equal to 10'),
      invalid('spec.n', 'Invalid value: 1: spec.n in body should be greater than or equal to 20'),
      invalid('<nil>', 'Invalid value: "": "spec.n" must validate all the schemas (allOf). None validated'),
    ]);
  });
});

describe('not', () => {
  const schema = { type: 'string', not: { enum: ['forbidden'] } };

  it('passes when the schema does not validate', () => {
    expect(causesAt('s', schema, 'fine')).toEqual([]);
  });

  it('fails when it does', () => {
    expect(causesAt('s', schema, 'forbidden')).toEqual([
      invalid('<nil>', 'Invalid value: "": "spec.s" must not validate the schema (not)'),
    ]);
  });
});
