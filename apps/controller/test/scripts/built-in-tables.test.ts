import { readFileSync } from 'node:fs';
import type { FormFactorPlugin } from '@scoby/formfactor';
import { describe, expect, it } from 'vitest';
import { hookPhases } from '@scoby/hooks-v1/client';
import {
  BLOCKS_FILE,
  builtInBlocksModule,
  CAPABILITIES_FILE,
  hookCapabilitiesModule,
  guessResource,
  managedResources,
  RBAC_BEGIN,
  RBAC_END,
  RBAC_FILE,
  rbacWithBuiltInRows,
  REGENERATE,
  repositoryPath,
} from '../../scripts/built-in-tables.ts';
import { BUILT_IN_FORM_FACTORS } from '../../src/process/built-in-form-factors.ts';
import { SHIPPED_GRANTS } from '../../src/registration/access/access-needs.ts';

const committed = (file: string) => readFileSync(repositoryPath(file), 'utf8');
const CHILD_VERBS = 'verbs: [get, list, watch, create, update, patch, delete]';

function withManagedKinds(...managedKinds: FormFactorPlugin['managedKinds']): FormFactorPlugin[] {
  const [deployment, ...others] = BUILT_IN_FORM_FACTORS;
  return [{ ...deployment!, managedKinds: [...deployment!.managedKinds, ...managedKinds] }, ...others];
}

describe('what the built-in form factors declare, in the files that list it', () => {
  it(`${BLOCKS_FILE} holds each built-in's blockSchema`, () => {
    expect(committed(BLOCKS_FILE), REGENERATE).toBe(builtInBlocksModule(BUILT_IN_FORM_FACTORS));
  });

  it(`${CAPABILITIES_FILE} holds each hook phase and its spellings`, () => {
    expect(committed(CAPABILITIES_FILE), REGENERATE).toBe(hookCapabilitiesModule(hookPhases()));
  });

  it(`${RBAC_FILE} grants each kind the built-ins manage`, () => {
    const rbac = committed(RBAC_FILE);
    expect(rbac, REGENERATE).toBe(rbacWithBuiltInRows(rbac, BUILT_IN_FORM_FACTORS));
    const generated = rbac.slice(rbac.indexOf(RBAC_BEGIN) + RBAC_BEGIN.length + 1, rbac.indexOf(RBAC_END));
    expect(generated).toBe(
      [
        '- apiGroups: [apps]',
        '  resources: [deployments]',
        `  ${CHILD_VERBS}`,
        '- apiGroups: [""]',
        '  resources: [services]',
        `  ${CHILD_VERBS}`,
        '- apiGroups: [serving.knative.dev]',
        '  resources: [services]',
        `  ${CHILD_VERBS}`,
        '',
      ].join('\n'),
    );
  });

  it('the access check names the ClusterRole Scoby ships for exactly the generated rows', () => {
    const generated = managedResources(BUILT_IN_FORM_FACTORS).map(
      ({ group, resource }) => `${group}/${resource}`,
    );
    expect([...SHIPPED_GRANTS]).toEqual(generated);
  });

  it('a kind a built-in starts to manage gets its row; a kind managed twice, one', () => {
    const rbac = committed(RBAC_FILE);
    const rows = rbacWithBuiltInRows(
      rbac,
      withManagedKinds(
        { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ),
    );
    // In the built-ins' order: after the Deployment form factor's Service, before the Knative Service.
    const coreServices = `- apiGroups: [""]\n  resources: [services]\n  ${CHILD_VERBS}\n`;
    expect(rows).toBe(
      rbac.replace(
        coreServices,
        `${coreServices}- apiGroups: [networking.k8s.io]\n  resources: [ingresses]\n  ${CHILD_VERBS}\n`,
      ),
    );
  });

  it('resources are guessed from kinds as Kubernetes guesses them without discovery', () => {
    expect(
      ['Deployment', 'Service', 'Ingress', 'NetworkPolicy', 'Endpoints', 'StatefulSet'].map(guessResource),
    ).toEqual(['deployments', 'services', 'ingresses', 'networkpolicies', 'endpoints', 'statefulsets']);
  });

  it('refuses a manifest without the lines around the generated rows', () => {
    const rbac = committed(RBAC_FILE);
    for (const broken of [
      rbac.replace(`${RBAC_END}\n`, ''),
      rbac.replace(`${RBAC_BEGIN}\n`, `${RBAC_BEGIN}\n${RBAC_BEGIN}\n`),
    ])
      expect(() => rbacWithBuiltInRows(broken, BUILT_IN_FORM_FACTORS)).toThrow(
        `${RBAC_FILE} needs the lines ${JSON.stringify(RBAC_BEGIN)} and ${JSON.stringify(RBAC_END)}, once each, in that order`,
      );
  });
});
