import { describe, expect, it } from 'vitest';
import { pruneAndValidate, type JSONSchemaProps } from '../src/index.ts';

const prune = (schema: JSONSchemaProps, value: unknown, root = false) =>
  pruneAndValidate(schema, value, { root }).value;

describe('pruning unknown fields', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          nested: { type: 'object', properties: { keep: { type: 'string' } } },
          list: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
        },
      },
    },
  };

  it('drops unknown fields at every depth, in objects and list items', () => {
    const value = {
      spec: {
        name: 'n',
        extra: 1,
        nested: { keep: 'k', drop: 'd' },
        list: [{ id: 'a', junk: true }, { other: 1 }],
      },
      status: { anything: true },
    };
    expect(prune(schema, value)).toEqual({
      spec: { name: 'n', nested: { keep: 'k' }, list: [{ id: 'a' }, {}] },
    });
  });

  it('keeps apiVersion, kind and metadata at the resource root, metadata untouched', () => {
    const value = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'x', labels: { a: 'b' }, unknownMeta: 1 },
      spec: { name: 'n' },
      extra: true,
    };
    expect(prune(schema, value, true)).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'x', labels: { a: 'b' }, unknownMeta: 1 },
      spec: { name: 'n' },
    });
  });

  it('drops apiVersion, kind and metadata below the root when not declared', () => {
    expect(prune(schema, { spec: { apiVersion: 'v1', kind: 'K', metadata: {} } }, true)).toEqual({
      spec: {},
    });
  });

  it('does not change the input', () => {
    const value = { spec: { extra: 1 } };
    prune(schema, value);
    expect(value).toEqual({ spec: { extra: 1 } });
  });
});

describe('x-kubernetes-preserve-unknown-fields', () => {
  it('keeps unknown fields at that node but prunes inside known properties', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
    };
    expect(prune(schema, { free: { deep: 1 }, known: { a: 'x', b: 'y' } })).toEqual({
      free: { deep: 1 },
      known: { a: 'x' },
    });
  });

  it('list items of a preserving list keep their unknown fields', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          'x-kubernetes-preserve-unknown-fields': true,
          items: { type: 'object', properties: {} },
        },
      },
    };
    expect(prune(schema, { list: [{ a: 1 }] })).toEqual({ list: [{ a: 1 }] });
  });

  it('a preserving node without properties keeps everything below it', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    };
    expect(prune(schema, { config: { a: { b: [{ c: 1 }] } } })).toEqual({ config: { a: { b: [{ c: 1 }] } } });
  });
});

describe('additionalProperties (maps)', () => {
  it('keeps every key and prunes values by the value schema', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        byName: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { port: { type: 'integer' } } },
        },
      },
    };
    expect(prune(schema, { byName: { web: { port: 80, junk: 1 }, db: { port: 5432 } } })).toEqual({
      byName: { web: { port: 80 }, db: { port: 5432 } },
    });
  });
});

describe('x-kubernetes-embedded-resource', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      template: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } },
      },
    },
  };

  it('keeps apiVersion, kind and metadata of the embedded object and prunes the rest', () => {
    const value = {
      template: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', labels: { a: 'b' } },
        spec: { image: 'nginx', junk: 1 },
        extra: 1,
      },
    };
    expect(pruneAndValidate(schema, value, { root: false })).toEqual({
      value: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', labels: { a: 'b' } },
          spec: { image: 'nginx' },
        },
      },
      causes: [],
    });
  });

  it('requires apiVersion and kind', () => {
    expect(pruneAndValidate(schema, { template: {} }, { root: false }).causes).toEqual([
      {
        type: 'FieldValueRequired',
        field: 'template.apiVersion',
        message: 'Required value: must not be empty',
      },
      { type: 'FieldValueRequired', field: 'template.kind', message: 'Required value: must not be empty' },
    ]);
  });

  it('checks the apiVersion and kind syntax', () => {
    expect(
      pruneAndValidate(schema, { template: { apiVersion: 'a/b/c', kind: 'My_Kind' } }, { root: false })
        .causes,
    ).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'template.apiVersion',
        message: 'Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      },
      {
        type: 'FieldValueInvalid',
        field: 'template.kind',
        message:
          "Invalid value: \"My_Kind\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      },
    ]);
  });

  it('rejects empty and non-string apiVersion and kind', () => {
    expect(
      pruneAndValidate(schema, { template: { apiVersion: '', kind: 5 } }, { root: false }).causes,
    ).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'template.apiVersion',
        message: 'Invalid value: "": must not be empty',
      },
      { type: 'FieldValueInvalid', field: 'template.kind', message: 'Invalid value: 5: must be a string' },
    ]);
  });

  it('finds embedded resources inside lists', () => {
    const listSchema: JSONSchemaProps = {
      type: 'object',
      properties: { items: { type: 'array', items: schema.properties?.template } },
    };
    expect(
      pruneAndValidate(
        listSchema,
        { items: [{ apiVersion: 'v1', kind: 'Pod' }, { kind: 'Pod' }] },
        { root: false },
      ).causes,
    ).toEqual([
      {
        type: 'FieldValueRequired',
        field: 'items[1].apiVersion',
        message: 'Required value: must not be empty',
      },
    ]);
  });
});

describe('metadata at the resource root', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      metadata: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 5 }, namespace: { type: 'integer' } },
      },
    },
  };

  it('validates metadata.name by the schema', () => {
    expect(pruneAndValidate(schema, { metadata: { name: 'toolong' } }, { root: true }).causes).toEqual([
      {
        type: 'FieldValueTooLong',
        field: 'metadata.name',
        message: 'Too long: may not be more than 5 bytes',
      },
    ]);
  });

  it('validates nothing else of metadata', () => {
    expect(
      pruneAndValidate(schema, { metadata: { name: 'ok', namespace: 'ns' } }, { root: true }).causes,
    ).toEqual([]);
  });
});
