import { describe, expect, it } from 'vitest';
import { builtInBlockNode, builtInBlockNodes } from '../src/built-in-blocks.ts';
import { BUILT_IN_BLOCK_SCHEMAS } from '../src/built-in-blocks.generated.ts';
import { SCHEMA } from '../src/schema.ts';

const formFactorNode = () =>
  SCHEMA.properties?.['spec']?.properties?.['workload']?.properties?.['formFactor'];

describe('the built-in blocks of the registration schema (docs/spec/registration.md §3.1)', () => {
  it('are the form factors’ block schemas, named, nullable and without defaults', () => {
    expect(
      builtInBlockNode('queueWorker', {
        type: 'object',
        description: 'A worker.',
        required: ['size'],
        properties: {
          size: { type: 'integer', minimum: 1, default: 3, description: 'Workers.' },
          labels: {
            type: 'object',
            description: 'Labels.',
            additionalProperties: { type: 'string', default: 'x', description: 'A label.' },
          },
          ports: { type: 'array', description: 'Ports.', items: { type: 'integer', default: 80 } },
        },
      }),
    ).toEqual({
      title: 'QueueWorkerFormFactor',
      type: 'object',
      description: 'A worker.',
      nullable: true,
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, description: 'Workers.' },
        labels: {
          type: 'object',
          description: 'Labels.',
          additionalProperties: { type: 'string', description: 'A label.' },
        },
        ports: { type: 'array', description: 'Ports.', items: { type: 'integer' } },
      },
    });
  });

  it('refuses a keyword a CRD schema node cannot hold, naming where it is', () => {
    expect(() =>
      builtInBlockNode('queueWorker', {
        type: 'object',
        properties: { size: { oneOf: [{ type: 'integer' }, { type: 'string' }] } },
      }),
    ).toThrow('the block schema has "oneOf" at queueWorker.size, which a CRD\'s schema node cannot hold');
  });

  it('are what SCHEMA holds under spec.workload.formFactor, for every generated block', () => {
    expect(Object.keys(BUILT_IN_BLOCK_SCHEMAS)).toEqual(['deployment', 'knativeService']);
    expect(formFactorNode()?.properties).toEqual(builtInBlockNodes());
    expect(formFactorNode()?.properties?.['deployment']?.properties?.['replicas']).toEqual({
      type: 'integer',
      minimum: 0,
      description: 'Replicas of the Deployment (0 or more). Default 1.',
    });
  });
});
