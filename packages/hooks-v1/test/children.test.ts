import { describe, expect, it } from 'vitest';
import { validateChildren, type ChildrenContext } from '../src/children.ts';
import { deployment, deploymentManagedKinds, service } from './support/fixtures.ts';

const context: ChildrenContext = {
  sent: { deployment, service },
  managedKinds: deploymentManagedKinds,
  formFactor: 'deployment',
  instanceNamespace: 'shop',
};

const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' } };

describe('validateChildren (§5.3)', () => {
  it('accepts changed, renamed and additional children of managed kinds, with or without namespace', () => {
    const answer = {
      deployment: { ...deployment, spec: { replicas: 5 } },
      service: { ...service, metadata: { name: 'renamed' } },
      metrics: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'metrics', namespace: 'shop' } },
    };
    expect(validateChildren(answer, context)).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['a string', 'deployment', 'is not a JSON object'],
    ['null', null, 'is not a JSON object'],
    ['an array', [deployment], 'is not a JSON object'],
    [
      'no apiVersion',
      { kind: 'Deployment', metadata: { name: 'a' } },
      'apiVersion must be a non-empty string',
    ],
    ['an empty apiVersion', { ...deployment, apiVersion: '' }, 'apiVersion must be a non-empty string'],
    ['no kind', { apiVersion: 'apps/v1', metadata: { name: 'a' } }, 'kind must be a non-empty string'],
    ['a numeric kind', { ...deployment, kind: 7 }, 'kind must be a non-empty string'],
    ['no metadata', { apiVersion: 'apps/v1', kind: 'Deployment' }, 'metadata is not a JSON object'],
    [
      'no name',
      { ...deployment, metadata: { namespace: 'shop' } },
      'metadata.name must be a non-empty string',
    ],
    ['an empty name', { ...deployment, metadata: { name: '' } }, 'metadata.name must be a non-empty string'],
  ])('rule 1: rejects a child that is %s', (_case, child, problem) => {
    expect(validateChildren({ deployment: child, service }, context)).toEqual([
      { path: 'children.deployment', problem },
    ]);
  });

  it('rule 2: rejects a namespace other than the instance namespace', () => {
    const moved = { ...service, metadata: { name: 'mailer-orders', namespace: 'other' } };
    const blank = { ...service, metadata: { name: 'mailer-orders', namespace: '' } };
    expect(validateChildren({ deployment, service: moved }, context)).toEqual([
      {
        path: 'children.service',
        problem: `metadata.namespace "other" is not the instance's namespace "shop"`,
      },
    ]);
    expect(validateChildren({ deployment, service: blank }, context)).toEqual([
      { path: 'children.service', problem: `metadata.namespace "" is not the instance's namespace "shop"` },
    ]);
  });

  it('rule 3: rejects kinds the form factor does not manage, compared by apiVersion and kind', () => {
    const knative = { apiVersion: 'serving.knative.dev/v1', kind: 'Service', metadata: { name: 'k' } };
    expect(validateChildren({ deployment, service, extra: configMap, knative }, context)).toEqual([
      { path: 'children.extra', problem: 'kind "ConfigMap" (v1) is not managed by form factor "deployment"' },
      {
        path: 'children.knative',
        problem: 'kind "Service" (serving.knative.dev/v1) is not managed by form factor "deployment"',
      },
    ]);
  });

  it('rule 4: every key sent must come back, with the same apiVersion and kind', () => {
    expect(validateChildren({ deployment }, context)).toEqual([
      { path: 'children.service', problem: 'missing' },
    ]);
    const swapped = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'mailer-orders' } };
    expect(
      validateChildren({ deployment: swapped, service: { ...service, metadata: { name: 'b' } } }, context),
    ).toEqual([
      {
        path: 'children.deployment',
        problem: 'kind "Service" (v1) differs from the kind "Deployment" (apps/v1) that was sent',
      },
    ]);
  });

  it('rule 5: no two children share kind and name', () => {
    const twin = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'mailer-orders' } };
    expect(validateChildren({ deployment, service, another: twin }, context)).toEqual([
      {
        path: 'children.service',
        problem: 'kind "Service" and name "mailer-orders" are already used by children.another',
      },
    ]);
  });

  it('the same name under different kinds is fine', () => {
    expect(deployment.metadata.name).toBe(service.metadata.name);
    expect(validateChildren({ deployment, service }, context)).toEqual([]);
  });

  it('lists problems in byte order of the keys, whatever order the hook wrote them in', () => {
    const answer = { zeta: configMap, service, Alpha: configMap };
    expect(validateChildren(answer, context).map((problem) => problem.path)).toEqual([
      'children.Alpha',
      'children.deployment',
      'children.zeta',
    ]);
  });
});
