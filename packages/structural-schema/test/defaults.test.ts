import { describe, expect, it } from 'vitest';
import { defaultValues, pruneAndValidate, type JSONSchemaProps } from '../src/index.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      required: ['replicas'],
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'fast' },
        optional: { type: 'string' },
        nested: {
          type: 'object',
          default: { inner: {} },
          properties: { inner: { type: 'object', properties: { level: { type: 'integer', default: 3 } } } },
        },
        list: {
          type: 'array',
          items: { type: 'object', properties: { weight: { type: 'integer', default: 10 } } },
        },
        map: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { on: { type: 'boolean', default: true } } },
        },
        nullableWithDefault: { type: 'string', nullable: true, default: 'x' },
      },
    },
  },
};

describe('defaultValues', () => {
  it('sets defaults of absent fields, recursively, also inside defaults', () => {
    expect(defaultValues(schema, {})).toEqual({
      spec: { replicas: 1, mode: 'fast', nested: { inner: { level: 3 } }, nullableWithDefault: 'x' },
    });
  });

  it('keeps values that are present', () => {
    expect(
      defaultValues(schema, { spec: { replicas: 5, mode: 'slow', nested: {}, nullableWithDefault: 'y' } }),
    ).toEqual({
      spec: { replicas: 5, mode: 'slow', nested: {}, nullableWithDefault: 'y' },
    });
  });

  it('defaults list items and map values', () => {
    expect(
      defaultValues(schema, { spec: { list: [{}, { weight: 2 }], map: { a: {}, b: { on: false } } } }),
    ).toEqual({
      spec: {
        replicas: 1,
        mode: 'fast',
        nested: { inner: { level: 3 } },
        nullableWithDefault: 'x',
        list: [{ weight: 10 }, { weight: 2 }],
        map: { a: { on: true }, b: { on: false } },
      },
    });
  });

  it('replaces a non-nullable null by the default but keeps a nullable null', () => {
    expect(defaultValues(schema, { spec: { replicas: null, nullableWithDefault: null } })).toEqual({
      spec: { replicas: 1, mode: 'fast', nested: { inner: { level: 3 } }, nullableWithDefault: null },
    });
  });

  it('replaces null list items by the item default', () => {
    const list: JSONSchemaProps = { type: 'array', items: { type: 'string', default: 'd' } };
    expect(defaultValues(list, ['a', null])).toEqual(['a', 'd']);
  });

  it('does not change its input and leaves a default object unshared', () => {
    const input = {};
    const first = defaultValues(schema, input) as { spec: { nested: { inner: object } } };
    first.spec.nested.inner = { changed: true };
    expect(input).toEqual({});
    expect((defaultValues(schema, {}) as typeof first).spec.nested.inner).toEqual({ level: 3 });
  });
});

describe('pruneAndValidate applies defaults before validating', () => {
  it('a required field with a default is not reported missing', () => {
    expect(pruneAndValidate(schema, { spec: {} }, { root: true })).toEqual({
      value: {
        spec: { replicas: 1, mode: 'fast', nested: { inner: { level: 3 } }, nullableWithDefault: 'x' },
      },
      causes: [],
    });
  });

  it('defaults after pruning, so a pruned field is defaulted afresh', () => {
    const small: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string', default: 'd' } } };
    expect(pruneAndValidate(small, { b: 1 }, { root: false }).value).toEqual({ a: 'd' });
  });
});
