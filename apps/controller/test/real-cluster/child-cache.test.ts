/**
 * On the real control plane, with Scoby's ServiceAccount: the caches keep of a child only what is read
 * (docs/spec/children-and-status.md §5.2; test/integration/child-cache.test.ts is the in-memory twin). The
 * Deployment becomes Available through kube-controller-manager and kwok, which also annotate it with
 * its revision: a change of a field Scoby does not set, after which it is found up to date again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentFormFactor } from '@scoby/formfactor-deployment';
import type { RunningProcess } from '../../src/process/options.ts';
import type { ClusterVerbs } from '../support/cluster.ts';
import {
  containerEnv,
  DEPLOYMENTS,
  editEnvValue,
  expectSharedEmpties,
  expectSlim,
  greetWorld,
  SERVICES,
  waitForSlim,
} from '../support/child-cache.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const GROUP = 'cache.real.example.com';
const NAMESPACE = 'child-cache-real';
const CHILD = 'greeter-cache-real-main';

let admin: ClusterVerbs;
let controller: RunningProcess | undefined;

beforeAll(async () => {
  admin = realClusterAdmin();
  controller = startRealController();
  await admin.apply(registeredKindRole(GROUP, 'greeters'));
  await greetWorld(admin, { group: GROUP, namespace: NAMESPACE, registration: 'greeter-cache-real' });
});

afterAll(async () => {
  await controller?.stop();
  await admin.remove({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await admin.stop();
});

describe('children cached slim by the built-in form factors', () => {
  it('keeps of an up-to-date child its metadata and status only, frozen', async () => {
    const deployment = await waitForSlim(admin, controller!, DEPLOYMENTS, NAMESPACE, CHILD);
    expectSlim(deployment);
    expect(deployment.metadata).not.toHaveProperty('managedFields');
    // kube-controller-manager's revision annotation came after Scoby's write: found up to date again.
    const live = await admin.get('apps/v1', 'Deployment', NAMESPACE, CHILD);
    expect(live?.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    const service = await waitForSlim(admin, controller!, SERVICES, NAMESPACE, CHILD);
    expectSlim(service);
    expect(service.status).toEqual({ loadBalancer: {} });
    expectSharedEmpties([deployment, service]);
  });

  it('corrects a kubectl-style edit of a container env value, a field its cache does not hold', async () => {
    await waitForSlim(admin, controller!, DEPLOYMENTS, NAMESPACE, CHILD);
    await editEnvValue(admin, NAMESPACE, CHILD, 'GREETING', 'edited by hand');
    const restored = await admin.waitFor('the env value restored', async () => {
      const live = await admin.get('apps/v1', 'Deployment', NAMESPACE, CHILD);
      return containerEnv(live).find((env) => env.name === 'GREETING')?.value === 'hello' ? live : undefined;
    });
    expect(containerEnv(restored)).toEqual([{ name: 'GREETING', value: 'hello' }]);
    const managers = (restored.metadata.managedFields ?? []).map(
      (entry) => (entry as { manager?: string }).manager,
    );
    expect(managers).toContain('scoby-controller');
    expectSlim(await waitForSlim(admin, controller!, DEPLOYMENTS, NAMESPACE, CHILD));
  });
});

describe('a kind a form factor declares no observed fields for', () => {
  it('is cached whole (without managedFields) by a controller with that plugin', async () => {
    await controller?.stop();
    const { observedFields: _declared, hookName: _hookName, ...undeclared } = deploymentFormFactor;
    controller = startRealController({
      plugins: [
        {
          ...undeclared,
          name: 'wholeDeployment',
          managedKinds: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        },
      ],
    });
    const deployment = await admin.waitFor('the Deployment cached', async () =>
      controller!.cached(DEPLOYMENTS, NAMESPACE, CHILD),
    );
    // Reconciled (so found up to date) and still whole.
    await waitForSlim(admin, controller!, SERVICES, NAMESPACE, CHILD);
    const cached = controller!.cached(DEPLOYMENTS, NAMESPACE, CHILD) ?? deployment;
    expect(Object.isFrozen(cached)).toBe(false);
    expect(containerEnv(cached)).toEqual([{ name: 'GREETING', value: 'hello' }]);
    expect(cached.metadata).not.toHaveProperty('managedFields');
    expect(cached.metadata.creationTimestamp).toEqual(expect.any(String));
  });
});
