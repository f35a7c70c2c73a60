import { describe, expect, it } from 'vitest';
import { registrationAccessNeeds } from '../../../src/registration/access/access-needs.ts';
import { missingAccessMessage } from '../../../src/registration/access/missing-access.ts';

const DEPLOYMENTS = { group: 'apps', resource: 'deployments' };
const SERVICES = { group: '', resource: 'services' };
const KSVC = { group: 'serving.knative.dev', resource: 'services' };
const STATEFULSETS = { group: 'apps', resource: 'statefulsets' };

describe('what a registration needs', () => {
  const needs = registrationAccessNeeds({
    instance: { group: 'extensions.triggermesh.io', resource: 'kuards', statusSubresource: true },
    workloadKinds: [DEPLOYMENTS, SERVICES],
    otherKinds: [DEPLOYMENTS, SERVICES, KSVC, STATEFULSETS],
  });

  it('patch (never update) on instances and their status, full access to its kinds, list, watch and delete on the other kinds', () => {
    expect(needs).toEqual([
      {
        group: 'extensions.triggermesh.io',
        resource: 'kuards',
        verbs: ['get', 'list', 'watch', 'patch'],
        grantor: 'registered',
      },
      {
        group: 'extensions.triggermesh.io',
        resource: 'kuards',
        subresource: 'status',
        verbs: ['patch'],
        grantor: 'registered',
      },
      {
        ...DEPLOYMENTS,
        verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
        grantor: 'scoby-controller',
      },
      {
        ...SERVICES,
        verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'],
        grantor: 'scoby-controller',
      },
      { ...KSVC, verbs: ['list', 'watch', 'delete'], grantor: 'scoby-controller' },
      // A plugin's kind is not in the shipped role: its grant comes from a labelled ClusterRole.
      { ...STATEFULSETS, verbs: ['list', 'watch', 'delete'], grantor: 'registered' },
    ]);
  });

  it('asks nothing about a status subresource the CRD lacks', () => {
    const withoutStatus = registrationAccessNeeds({
      instance: { group: 'g.example.com', resource: 'things', statusSubresource: false },
      workloadKinds: [],
      otherKinds: [],
    });
    expect(withoutStatus.map((need) => need.subresource)).toEqual([undefined]);
  });

  it('names each refused verb and resource, and the rules to add to which ClusterRole', () => {
    const [kuards, status, deployments] = needs;
    expect(
      missingAccessMessage([
        { need: kuards!, verb: 'patch', namespace: '' },
        { need: status!, verb: 'patch', namespace: '' },
        { need: deployments!, verb: 'create', namespace: 'shop' },
      ]),
    ).toBe(
      'the controller may not patch kuards.extensions.triggermesh.io (all namespaces), ' +
        'patch kuards.extensions.triggermesh.io/status (all namespaces), ' +
        'create deployments.apps in namespace shop; ' +
        'add to a ClusterRole labelled scoby.triggermesh.io/crdregistration: "true" the rules ' +
        '{apiGroups: ["extensions.triggermesh.io"], resources: [kuards], verbs: [get, list, watch, patch]}, ' +
        '{apiGroups: ["extensions.triggermesh.io"], resources: [kuards/status], verbs: [patch]}; ' +
        'add to the ClusterRole scoby-controller (deploy/10-rbac.yaml) the rules ' +
        '{apiGroups: ["apps"], resources: [deployments], verbs: [get, list, watch, create, patch, delete]} ' +
        '(see docs/migration.md)',
    );
  });
});
