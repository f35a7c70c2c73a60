import { describe, expect, it } from 'vitest';
import { chooseVersion, inspectCrd, statusFeatures } from '../../src/crd/inspect.ts';
import { compareVersionPriority } from '@scoby/kube-objects';
import { statusPathAllowed } from '../../src/crd/status-paths.ts';

const served = (name: string, extra: Record<string, unknown> = {}) => ({ name, served: true, ...extra });

describe('version choice (docs/spec/children-and-status.md §7.1)', () => {
  it.each([
    [['v1beta1', 'v1', 'v1alpha1'], 'v1'],
    [['v2beta1', 'v1'], 'v1'],
    [['v1alpha1', 'v1alpha2'], 'v1alpha2'],
    [['v2', 'v10', 'v3'], 'v10'],
    [['foo', 'v1alpha1', 'bar'], 'v1alpha1'],
    [['zeta', 'alpha'], 'alpha'],
  ])('%j → %s', (names, expected) => {
    expect(chooseVersion(names.map((name) => served(name)))?.name).toBe(expected);
  });

  it('prefers non-deprecated versions and skips unserved ones', () => {
    expect(
      chooseVersion([served('v2', { deprecated: true }), served('v1'), { name: 'v3', served: false }])?.name,
    ).toBe('v1');
    expect(chooseVersion([served('v2', { deprecated: true })])?.name).toBe('v2');
    expect(chooseVersion([{ name: 'v1', served: false }])).toBeUndefined();
  });

  it('ranks GA before beta before alpha', () => {
    const sorted = ['v1alpha1', 'v1beta2', 'v1', 'v1beta1', 'v2alpha1'].sort(compareVersionPriority);
    expect(sorted).toEqual(['v1', 'v1beta2', 'v1beta1', 'v2alpha1', 'v1alpha1']);
  });
});

const conditionItems = {
  type: 'object',
  properties: { type: { type: 'string' }, status: { type: 'string' }, reason: { type: 'string' } },
};

describe('status features (§7.2)', () => {
  it('turns everything off without a status subresource', () => {
    expect(statusFeatures(served('v1', { schema: { openAPIV3Schema: { type: 'object' } } }))).toEqual({
      subresource: false,
      conditionFields: [],
      observedGeneration: false,
      address: false,
      schema: undefined,
    });
  });

  it('enables everything when status preserves unknown fields', () => {
    const status = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    expect(
      statusFeatures(
        served('v1', {
          subresources: { status: {} },
          schema: { openAPIV3Schema: { properties: { status } } },
        }),
      ),
    ).toEqual({
      subresource: true,
      conditionFields: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
      observedGeneration: true,
      address: true,
      schema: status,
    });
  });

  it('reads each feature from the declared schema', () => {
    const status = {
      type: 'object',
      properties: {
        conditions: { type: 'array', items: conditionItems },
        observedGeneration: { type: 'string' },
        address: { type: 'object', properties: { url: { type: 'string' } } },
      },
    };
    const features = statusFeatures(
      served('v1', { subresources: { status: {} }, schema: { openAPIV3Schema: { properties: { status } } } }),
    );
    expect(features.conditionFields).toEqual(['type', 'status', 'reason']);
    expect(features.observedGeneration).toBe(false);
    expect(features.address).toBe(true);
  });

  it('switches conditions off when items lack a string type or status', () => {
    const status = {
      type: 'object',
      properties: {
        conditions: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' } } } },
      },
    };
    const features = statusFeatures(
      served('v1', { subresources: { status: {} }, schema: { openAPIV3Schema: { properties: { status } } } }),
    );
    expect(features.conditionFields).toEqual([]);
  });

  it('inspects a whole CRD', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'mailers.notify.example.com' },
      spec: {
        group: 'notify.example.com',
        scope: 'Namespaced',
        names: { kind: 'Mailer', plural: 'mailers' },
        versions: [served('v1alpha1'), served('v1')],
      },
    };
    expect(inspectCrd(crd)).toMatchObject({
      name: 'mailers.notify.example.com',
      group: 'notify.example.com',
      kind: 'Mailer',
      plural: 'mailers',
      namespaced: true,
      version: 'v1',
    });
  });
});

describe('status paths allowed by the schema (§7.2)', () => {
  const schema = {
    type: 'object',
    properties: {
      sinkUri: { type: 'string' },
      count: { type: 'integer' },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
    },
  };
  it.each([
    [['sinkUri'], true],
    [['count'], false],
    [['missing'], false],
    [['free', 'a', 'b'], true],
    [['labels', 'x'], true],
  ])('%j → %s', (segments, expected) => {
    expect(statusPathAllowed(schema, segments)).toBe(expected);
  });
});
