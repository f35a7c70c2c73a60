/**
 * `helm install` of the chart on the real control plane, then the controller run locally (kwok's pods
 * run no container) as the chart's ServiceAccount, reconciling the Greeter sample to Ready: the
 * chart's RBAC is all Scoby needs.
 */
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '@scoby/kube-control-plane';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../src/paths.ts';
import { eventually, startController, type LocalController } from './controller.ts';
import { CHART, HELM, KUBECTL, succeed } from './tools.ts';

const NAMESPACE = 'scoby-chart';
const SAMPLES = join(REPOSITORY_ROOT, 'apps/controller/samples');

describe('the Helm chart on the real control plane', () => {
  let plane: ControlPlane;
  let controller: LocalController | undefined;
  const kubectl = (...args: string[]) => succeed(KUBECTL, ['--kubeconfig', plane.kubeconfigPath, ...args]);

  beforeAll(async () => {
    plane = await startControlPlane({ log: (line) => console.log(`[install-chart] ${line}`) });
  });
  afterAll(async () => {
    await controller?.stop();
    await plane?.stop();
  });

  it('installs with helm, and the controller as the chart ServiceAccount reconciles the sample to Ready', async () => {
    const installed = succeed(HELM, [
      'install',
      'scoby',
      CHART,
      '--kubeconfig',
      plane.kubeconfigPath,
      '--namespace',
      NAMESPACE,
      '--create-namespace',
      '--set',
      'replicas=1',
    ]);
    expect(installed).toContain('STATUS: deployed');
    expect(kubectl('get', 'crd', 'crdregistrations.scoby.triggermesh.io', '-o', 'name')).toBe(
      'customresourcedefinition.apiextensions.k8s.io/crdregistrations.scoby.triggermesh.io\n',
    );
    expect(
      kubectl('get', 'deployment,service,serviceaccount,role,rolebinding', '-n', NAMESPACE, '-o', 'name')
        .split('\n')
        .sort(),
    ).toEqual([
      '',
      'deployment.apps/scoby-controller',
      'role.rbac.authorization.k8s.io/scoby-controller',
      'rolebinding.rbac.authorization.k8s.io/scoby-controller',
      'service/scoby-controller-metrics',
      'serviceaccount/default',
      'serviceaccount/scoby-controller',
    ]);
    // kwok's fake kubelet reports the pod Ready: the Deployment was accepted and scheduled as written.
    await eventually(
      'the chart Deployment to be Available',
      () =>
        kubectl(
          'get',
          'deployment',
          'scoby-controller',
          '-n',
          NAMESPACE,
          '-o',
          'jsonpath={.status.availableReplicas}',
        ) === '1'
          ? true
          : undefined,
      120_000,
    );

    controller = await startController(plane, NAMESPACE, 'scoby-controller');

    for (const file of ['greeter-crd.yaml', 'greeter-clusterrole.yaml'])
      kubectl('apply', '-f', join(SAMPLES, file));
    kubectl('wait', '--for=condition=Established', 'crd/greeters.samples.scoby.dev', '--timeout=60s');
    for (const file of ['greeter-registration.yaml', 'greeter-instance.yaml'])
      kubectl('apply', '-f', join(SAMPLES, file));

    const ready = await eventually(
      'the Greeter to be Ready',
      () => {
        const status = kubectl(
          'get',
          'greeter',
          'hello',
          '-n',
          'default',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
        );
        return status === 'True' ? status : undefined;
      },
      150_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; controller log:\n${controller?.log().slice(-4000)}`);
    });
    expect(ready).toBe('True');
    expect(
      kubectl(
        'get',
        'crdregistration',
        'greeter',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      ),
    ).toBe('True');
    // The children were written by the chart's ServiceAccount, and the Lease is held in the release namespace.
    const managers = kubectl(
      'get',
      'deployment',
      'greeter-hello',
      '-n',
      'default',
      '-o',
      'jsonpath={.metadata.managedFields[*].manager}',
    );
    expect(managers.split(' ')).toContain('scoby-controller');
    expect(kubectl('get', 'lease', '-n', NAMESPACE, '-o', 'name')).toBe(
      'lease.coordination.k8s.io/scoby-controller-leader\n',
    );
    expect(controller.log()).not.toMatch(/forbidden/i);
  });
});
