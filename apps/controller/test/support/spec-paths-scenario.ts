/**
 * A registration whose env path has a typo (`spec.greting`) against a CRD with a typed spec
 * (docs/spec/registration.md §5.5), run alike on the in-memory server and the real control plane.
 */
import { expect } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { crdFor, type ClusterVerbs } from './cluster.ts';
import {
  conditionsOf,
  eventViews,
  namespaceObject,
  REGISTRATION_API,
  registrationObject,
  registrationTarget,
  waitForCondition,
} from './scoby.ts';

export const SPEC_PATHS_GROUP = 'typos.example.com';
const CRD = `greeters.${SPEC_PATHS_GROUP}`;
const REGISTRATION = 'typo';

/** Greeters whose spec declares `greeting` and `language` only: the API server prunes the rest. */
export function typedGreeterCrd(): KubeObject {
  const crd = crdFor({ group: SPEC_PATHS_GROUP, kind: 'Greeter', plural: 'greeters' });
  const [version] = (crd.spec as { versions: Record<string, unknown>[] }).versions;
  const schema = version!.schema as { openAPIV3Schema: { properties: Record<string, unknown> } };
  schema.openAPIV3Schema.properties.spec = {
    type: 'object',
    properties: { greeting: { type: 'string' }, language: { type: 'string' } },
  };
  return crd;
}

function registration(paths: string[]): KubeObject {
  return registrationObject(REGISTRATION, {
    crd: CRD,
    workload: {
      fromImage: { repo: 'registry.example.com/greeter:1' },
      parameterConfiguration: { fromSpec: { toEnv: paths.map((path) => ({ path })) } },
    },
  });
}

const MESSAGE =
  'spec.workload.parameterConfiguration.fromSpec.toEnv[0].path: "spec.greting" is not in the schema of CRD "greeters.typos.example.com" version v1';

/** Logged lines as the test captured them. */
export type LogLines = () => Record<string, unknown>[];

/**
 * The typo: Ready stays True (Go Scoby accepted it), the warning condition names the path, one
 * Warning Event and one log line say the same; fixed, the condition goes.
 */
export async function typoInEnvPath(cluster: ClusterVerbs, logs: LogLines): Promise<void> {
  await cluster.apply(namespaceObject('typos'));
  await cluster.apply(typedGreeterCrd());
  await cluster.apply(registration(['spec.greting', 'spec.language']));
  const warned = await cluster.waitFor('the warning condition', async () => {
    const current = await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, REGISTRATION);
    return conditionsOf(current).some((condition) => condition.type === 'SpecPathsInSchema') &&
      conditionsOf(current).find((condition) => condition.type === 'Ready')?.status === 'True'
      ? current
      : undefined;
  });
  expect(conditionsOf(warned)).toEqual([
    { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
    { type: 'ControllerReady', status: 'True', reason: 'CONTROLLERSTARTED', message: '' },
    { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    { type: 'SpecPathsInSchema', status: 'False', reason: 'SpecPathNotInSchema', message: MESSAGE },
  ]);
  const events = await cluster.waitFor('the Warning Event', async () => {
    const found = eventViews(await cluster.events('default', REGISTRATION)).filter(
      (event) => event.reason === 'SpecPathNotInSchema',
    );
    return found.length > 0 ? found : undefined;
  });
  expect(events).toEqual([{ type: 'Warning', reason: 'SpecPathNotInSchema', message: MESSAGE }]);
  expect(logs().filter((line) => line.registration === REGISTRATION && line.level === 'warn')).toEqual([
    expect.objectContaining({ level: 'warn', registration: REGISTRATION, msg: MESSAGE }),
  ]);

  await cluster.apply(registration(['spec.greeting', 'spec.language']));
  const fixed = await cluster.waitFor('the warning gone', async () => {
    const current = await cluster.get(REGISTRATION_API, 'CRDRegistration', undefined, REGISTRATION);
    return conditionsOf(current).some((condition) => condition.type === 'SpecPathsInSchema')
      ? undefined
      : current;
  });
  expect(conditionsOf(fixed).map((condition) => `${condition.type}=${condition.status}`)).toEqual([
    'CRDExists=True',
    'ControllerReady=True',
    'Ready=True',
  ]);
  await waitForCondition(cluster, registrationTarget(REGISTRATION), 'Ready', 'True');
}
