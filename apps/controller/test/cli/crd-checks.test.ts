import { describe, expect, it } from 'vitest';
import { schemaHasPath } from '../../src/crd/spec-paths.ts';

const ROOT = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        endpoint: { type: 'string' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        labels: {
          type: 'object',
          additionalProperties: { type: 'object', properties: { value: { type: 'string' } } },
        },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

describe('schemaHasPath: the fields the API server keeps', () => {
  it.each([
    [['spec', 'endpoint'], true],
    [['spec', 'endpoint', 'host'], false],
    [['spec', 'missing'], false],
    [['spec', 'headers', 'X-Token'], true],
    [['spec', 'labels', 'team', 'value'], true],
    [['spec', 'labels', 'team', 'other'], false],
    [['spec', 'extra', 'any', 'depth'], true],
  ])('%j → %s', (segments, kept) => {
    expect(schemaHasPath(ROOT, segments)).toBe(kept);
  });
});
