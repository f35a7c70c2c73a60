/**
 * Validation of custom resources beyond the OpenAPI schema: CEL rules (x-kubernetes-validations),
 * transition rules with oldSelf, and list types (set and map) without duplicates.
 */
import { ApiextensionsV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connect,
  failure,
  freshNamespace,
  installEstablished,
  namespacedCrd,
  uniqueName,
  type Target,
} from './harness.ts';

let target: Target;
let custom: CustomObjectsApi;
let namespace: string;
const group = `${uniqueName('rules')}.example.com`;

const crd = namespacedCrd(
  group,
  { plural: 'checks', kind: 'Check' },
  {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        x_kubernetes_validations: [
          { rule: 'self.size < 10', message: 'size must stay below 10' },
          { rule: '!has(self.mode) || self.mode != "off" || self.size == 0' },
          {
            rule: 'self.size % 2 == 0 || !has(self.even)',
            messageExpression: '"size is odd in mode " + self.mode',
          },
          {
            rule: 'has(self.owner) || self.size < 5',
            message: 'owner is required from size 5',
            fieldPath: '.owner',
            reason: 'FieldValueRequired',
          },
        ],
        required: ['size'],
        properties: {
          size: { type: 'integer' },
          mode: { type: 'string', maxLength: 8 },
          even: { type: 'boolean' },
          owner: { type: 'string', maxLength: 8 },
          name: {
            type: 'string',
            x_kubernetes_validations: [{ rule: 'self == oldSelf', message: 'name is immutable' }],
          },
          tags: { type: 'array', x_kubernetes_list_type: 'set', items: { type: 'string' } },
          ports: {
            type: 'array',
            x_kubernetes_list_type: 'map',
            x_kubernetes_list_map_keys: ['name', 'protocol'],
            // client-node sends `items` as it is: wire names inside.
            items: {
              type: 'object',
              required: ['name', 'protocol'],
              properties: {
                name: { type: 'string' },
                protocol: { type: 'string' },
                port: {
                  type: 'integer',
                  'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'port may only grow' }],
                },
              },
            },
          },
        },
      },
    },
  },
);

beforeAll(async () => {
  target = await connect();
  custom = target.kubeConfig.makeApiClient(CustomObjectsApi);
  namespace = await freshNamespace(target, 'cel');
  await installEstablished(target, crd);
});
afterAll(() => target.stop());

function create(name: string, spec: unknown) {
  return custom.createNamespacedCustomObject({
    group,
    version: 'v1',
    namespace,
    plural: 'checks',
    body: { apiVersion: `${group}/v1`, kind: 'Check', metadata: { name }, spec },
  });
}

async function replaceSpec(name: string, spec: unknown) {
  const current = (await custom.getNamespacedCustomObject({
    group,
    version: 'v1',
    namespace,
    plural: 'checks',
    name,
  })) as Record<string, unknown>;
  return custom.replaceNamespacedCustomObject({
    group,
    version: 'v1',
    namespace,
    plural: 'checks',
    name,
    body: { ...current, spec },
  });
}

describe('CEL rules (x-kubernetes-validations)', () => {
  it('rejects an object a rule fails with the rule’s message, at the rule’s node', async () => {
    const status = await failure(create('big', { size: 12, owner: 'me' }));
    expect(status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: `Check.${group} "big" is invalid: spec: Invalid value: "object": size must stay below 10`,
      details: {
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "object": size must stay below 10',
            field: 'spec',
          },
        ],
      },
    });
  });

  it('names the failed rule when it has no message, and evaluates messageExpression', async () => {
    const status = await failure(create('off', { size: 3, mode: 'off', even: true }));
    expect(status.code).toBe(422);
    expect(status.details?.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: "object": failed rule: !has(self.mode) || self.mode != "off" || self.size == 0',
        field: 'spec',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "object": size is odd in mode off',
        field: 'spec',
      },
    ]);
  });

  it('reports a rule with fieldPath and reason at that field, as that error type', async () => {
    const status = await failure(create('ownerless', { size: 6 }));
    expect(status).toMatchObject({
      code: 422,
      message: `Check.${group} "ownerless" is invalid: spec.owner: Required value: owner is required from size 5`,
    });
  });

  it('skips the rules when the object fails its schema in a way they may depend on', async () => {
    const status = await failure(create('long', { size: 12, owner: 'much-too-long' }));
    expect(status.details?.causes).toEqual([
      { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 8 bytes', field: 'spec.owner' },
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        field: '<nil>',
      },
    ]);
  });

  it('evaluates transition rules (oldSelf) on updates only, per correlated field and list item', async () => {
    const name = uniqueName('moving');
    const ports = [{ name: 'web', protocol: 'TCP', port: 80 }];
    await create(name, { size: 2, name: 'first', ports });
    const renamed = await failure(replaceSpec(name, { size: 2, name: 'second', ports }));
    expect(renamed).toMatchObject({
      code: 422,
      message: `Check.${group} "${name}" is invalid: spec.name: Invalid value: "string": name is immutable`,
    });
    const shrunk = await failure(
      replaceSpec(name, { size: 2, name: 'first', ports: [{ name: 'web', protocol: 'TCP', port: 79 }] }),
    );
    expect(shrunk).toMatchObject({
      code: 422,
      message: `Check.${group} "${name}" is invalid: spec.ports[0].port: Invalid value: "integer": port may only grow`,
    });
    // A new list item has no old value: its transition rule is not evaluated.
    const grown = (await replaceSpec(name, {
      size: 2,
      name: 'first',
      ports: [...ports, { name: 'web', protocol: 'UDP', port: 1 }],
    })) as { spec: { ports: unknown[] } };
    expect(grown.spec.ports).toHaveLength(2);
  });

  it('does not re-check a value an update leaves unchanged (ratcheting)', async () => {
    const name = uniqueName('ratchet');
    await create(name, { size: 2, name: 'kept' });
    // The object passed; an update that keeps spec as it was passes too, whatever the rules.
    const updated = (await replaceSpec(name, { size: 2, name: 'kept' })) as { spec: unknown };
    expect(updated.spec).toEqual({ size: 2, name: 'kept' });
  });
});

describe('list types', () => {
  it('rejects duplicates in set lists and duplicate keys in map lists', async () => {
    const status = await failure(
      create('duplicates', {
        size: 1,
        tags: ['a', 'b', 'a'],
        ports: [
          { name: 'x', protocol: 'TCP', port: 1 },
          { name: 'x', protocol: 'UDP', port: 2 },
          { name: 'x', protocol: 'TCP', port: 3 },
        ],
      }),
    );
    expect(status).toMatchObject({ code: 422, reason: 'Invalid' });
    // Both, in no fixed order (the real server walks the properties of a Go map).
    expect(status.details?.causes).toHaveLength(2);
    expect(status.details?.causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"', field: 'spec.tags[2]' },
        {
          reason: 'FieldValueDuplicate',
          message: 'Duplicate value: {"name":"x","protocol":"TCP"}',
          field: 'spec.ports[2]',
        },
      ]),
    );
  });

  it('takes map lists whose items differ in one key', async () => {
    const spec = {
      size: 1,
      ports: [
        { name: 'dns', protocol: 'TCP', port: 53 },
        { name: 'dns', protocol: 'UDP', port: 53 },
      ],
    };
    const created = (await create(uniqueName('distinct'), spec)) as { spec: unknown };
    expect(created.spec).toEqual(spec);
  });
});

describe('differences', () => {
  it('differs: the estimated cost of rules is not checked (kube-apiserver rejects a CRD over budget)', async () => {
    const costly = `${uniqueName('costly')}.example.com`;
    const reply = await failure(
      target.kubeConfig.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
        body: namespacedCrd(
          costly,
          { plural: 'costs', kind: 'Cost' },
          {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                // string(int) has no size bound: its estimated cost is over budget.
                x_kubernetes_validations: [
                  { rule: 'self.size > 0', messageExpression: '"size " + string(self.size)' },
                ],
                properties: { size: { type: 'integer' } },
              },
            },
          },
        ),
      }),
    ).catch((error: unknown) => ({ accepted: error }));
    if (target.server) {
      expect(reply).toEqual({ accepted: new Error('expected the call to fail') });
      return;
    }
    expect(reply).toMatchObject({ code: 422, reason: 'Invalid' });
    expect((reply as { message: string }).message).toContain(
      'messageExpression: Forbidden: estimated messageExpression cost exceeds budget',
    );
  });
});
