import { describe, expect, it } from 'vitest';
import { registrationAccessNeeds, type WriteChoice } from '../../../src/registration/access/access-needs.ts';
import { missingAccessMessage, type Denial } from '../../../src/registration/access/missing-access.ts';
import { chooseWriteVerbs, writeQuestions } from '../../../src/registration/access/write-verbs.ts';

const DEPLOYMENTS = { group: 'apps', resource: 'deployments' };
const SERVICES = { group: '', resource: 'services' };
const KSVC = { group: 'serving.knative.dev', resource: 'services' };
const STATEFULSETS = { group: 'apps', resource: 'statefulsets' };

const KUARDS = { group: 'extensions.triggermesh.io', resource: 'kuards', grantor: 'registered' } as const;

describe('what a registration needs', () => {
  const plan = registrationAccessNeeds({
    instance: { group: 'extensions.triggermesh.io', resource: 'kuards', statusSubresource: true },
    finalizeHook: false,
    workloadKinds: [DEPLOYMENTS, SERVICES],
    otherKinds: [DEPLOYMENTS, SERVICES, KSVC, STATEFULSETS],
  });
  const { needs } = plan;

  it('reads instances, full access to its kinds, list, watch and delete on the other kinds', () => {
    expect(needs).toEqual([
      { ...KUARDS, verbs: ['get', 'list', 'watch'] },
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

  it('status writes are required (patch or update), finalizer writes only with a finalize hook', () => {
    expect(plan.writes).toEqual([
      { write: 'status', need: { ...KUARDS, subresource: 'status', verbs: ['patch'] }, required: true },
      { write: 'finalizers', need: { ...KUARDS, verbs: ['patch'] }, required: false },
    ]);
    const withFinalize = registrationAccessNeeds({
      instance: { group: 'extensions.triggermesh.io', resource: 'kuards', statusSubresource: true },
      finalizeHook: true,
      workloadKinds: [],
      otherKinds: [],
    });
    expect(withFinalize.writes.map((choice) => [choice.write, choice.required])).toEqual([
      ['status', true],
      ['finalizers', true],
    ]);
    expect(writeQuestions(withFinalize.writes[1]!)).toEqual({ ...KUARDS, verbs: ['patch', 'update'] });
  });

  it('reads Namespaces, cluster-wide, only for a namespaceSelector', () => {
    const input = {
      instance: { group: 'extensions.triggermesh.io', resource: 'kuards', statusSubresource: true },
      finalizeHook: false,
      workloadKinds: [],
      otherKinds: [],
    };
    expect(registrationAccessNeeds(input).needs.map((need) => need.resource)).toEqual(['kuards']);
    expect(registrationAccessNeeds({ ...input, readsNamespaces: true }).needs.at(-1)).toEqual({
      group: '',
      resource: 'namespaces',
      verbs: ['get', 'list', 'watch'],
      grantor: 'scoby-controller',
      clusterScoped: true,
    });
  });

  it('asks nothing about a status subresource the CRD lacks', () => {
    const withoutStatus = registrationAccessNeeds({
      instance: { group: 'g.example.com', resource: 'things', statusSubresource: false },
      finalizeHook: false,
      workloadKinds: [],
      otherKinds: [],
    });
    expect(withoutStatus.needs.map((need) => need.subresource)).toEqual([undefined]);
    expect(withoutStatus.writes.map((choice) => choice.write)).toEqual(['finalizers']);
  });

  it('names each refused verb and resource, and the rules to add to which ClusterRole, one per resource', () => {
    const [kuards, deployments] = needs;
    const [status, finalizers] = plan.writes;
    expect(
      missingAccessMessage([
        { need: kuards!, verb: 'watch', namespace: '' },
        { need: status!.need, verb: 'patch or update', namespace: '' },
        { need: finalizers!.need, verb: 'patch or update', namespace: '' },
        { need: deployments!, verb: 'create', namespace: 'shop' },
      ]),
    ).toBe(
      'the controller may not watch kuards.extensions.triggermesh.io (all namespaces), ' +
        'patch or update kuards.extensions.triggermesh.io/status (all namespaces), ' +
        'patch or update kuards.extensions.triggermesh.io (all namespaces), ' +
        'create deployments.apps in namespace shop; ' +
        'add to a ClusterRole labelled scoby.triggermesh.io/crdregistration: "true" the rules ' +
        '{apiGroups: ["extensions.triggermesh.io"], resources: [kuards], verbs: [get, list, watch, patch]}, ' +
        '{apiGroups: ["extensions.triggermesh.io"], resources: [kuards/status], verbs: [patch]}; ' +
        'add to the ClusterRole scoby-controller (deploy/10-rbac.yaml) the rules ' +
        '{apiGroups: ["apps"], resources: [deployments], verbs: [get, list, watch, create, patch, delete]} ' +
        '(see https://github.com/scoby-ts/scoby/blob/main/docs/migration.md)',
    );
  });
});

describe('the verb each instance write uses', () => {
  const writes = registrationAccessNeeds({
    instance: { group: 'extensions.triggermesh.io', resource: 'kuards', statusSubresource: true },
    finalizeHook: true,
    workloadKinds: [],
    otherKinds: [],
  }).writes;
  const [status, finalizers] = writes;
  const refused = (choice: WriteChoice, verb: string, namespace = ''): Denial => ({
    need: writeQuestions(choice),
    verb,
    namespace,
  });

  it('patch where granted (the shipped role)', () => {
    expect(chooseWriteVerbs(writes, [])).toEqual({
      verbs: { status: 'patch', finalizers: 'patch' },
      denials: [],
    });
  });

  it("update where patch is refused (Go Scoby's documented role)", () => {
    expect(chooseWriteVerbs(writes, [refused(status!, 'patch'), refused(finalizers!, 'patch')])).toEqual({
      verbs: { status: 'update', finalizers: 'update' },
      denials: [],
    });
  });

  it('patch refused in one working namespace is refused', () => {
    expect(chooseWriteVerbs(writes, [refused(status!, 'patch', 'shop')]).verbs).toEqual({
      status: 'update',
      finalizers: 'patch',
    });
  });

  it('neither verb: a denial per namespace where required, nothing chosen where not', () => {
    const both = (choice: WriteChoice, namespace: string) => [
      refused(choice, 'patch', namespace),
      refused(choice, 'update', namespace),
    ];
    expect(
      chooseWriteVerbs(writes, [...both(status!, 'a'), ...both(status!, 'b'), ...both(finalizers!, 'a')]),
    ).toEqual({
      verbs: {},
      denials: [
        { need: status!.need, verb: 'patch or update', namespace: 'a' },
        { need: status!.need, verb: 'patch or update', namespace: 'b' },
        { need: finalizers!.need, verb: 'patch or update', namespace: 'a' },
      ],
    });
    const optional = writes.map((choice) => ({ ...choice, required: choice.write === 'status' }));
    expect(chooseWriteVerbs(optional, both(finalizers!, ''))).toEqual({
      verbs: { status: 'patch' },
      denials: [],
    });
  });
});
