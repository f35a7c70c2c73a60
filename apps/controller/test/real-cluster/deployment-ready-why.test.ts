/**
 * docs/spec/children-and-status.md §8.3 on the real control plane: when a Deployment is not available,
 * DeploymentReady says why from its Pods. The Pods stay unscheduled (a hook gives the Deployment a
 * nodeSelector no node has, so kwok leaves them alone) and the test writes their status as the
 * kubelet would (PATCH pods/status with containerStatuses waiting for a reason); Scoby, which keeps
 * no Pod informer, finds each new reason on its own within its read interval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import type { RunningProcess } from '../../src/index.ts';
import { crdFor } from '../support/cluster.ts';
import { hookedRegistration } from '../support/hooks-fixtures.ts';
import { startScriptedHook, type ScriptedHook } from '../support/hooks-server.ts';
import { conditionOf, namespaceObject } from '../support/scoby.ts';
import { containerWaits } from './support/container-status.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const GROUP = 'why.real.example.com';
const API = `${GROUP}/v1`;
const NAMESPACE = 'why';
const IMAGE = 'registry.example.com/adapter:1.0';
const admin = realClusterAdmin();
let controller: RunningProcess;
let hook: ScriptedHook;

beforeAll(async () => {
  hook = await startScriptedHook((request) => {
    const deployment = structuredClone(request.body.children?.['deployment']) as KubeObject & {
      spec: { template: { spec: Record<string, unknown> } };
    };
    deployment.spec.template.spec.nodeSelector = { 'why.real.example.com/no-such-node': 'true' };
    return {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: { children: { ...request.body.children, deployment } },
    };
  });
  await admin.apply(registeredKindRole(GROUP, 'mailers'));
  await admin.apply(namespaceObject(NAMESPACE));
  await admin.apply(crdFor({ group: GROUP, kind: 'Mailer', plural: 'mailers' }));
  await admin.waitFor(
    'the CRD served',
    async () => (await admin.client.resourceFor(API, 'Mailer')) !== undefined,
  );
  controller = startRealController();
  await admin.apply(
    hookedRegistration('why', `mailers.${GROUP}`, {
      hook: { address: { uri: hook.url }, capabilities: ['pre-reconcile'] },
    }),
  );
});
afterAll(async () => {
  await controller?.stop();
  await hook?.close();
  await admin.stop();
});

/** What the kubelet writes for a container waiting for `reason`. */
const kubeletWrites = (
  pod: KubeObject,
  waiting: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => containerWaits(admin.client, pod, IMAGE, waiting, extra);

function deploymentReady(reason: string) {
  return admin.waitFor(`DeploymentReady ${reason}`, async () => {
    const mailer = await admin.get(API, 'Mailer', NAMESPACE, 'orders');
    const condition = conditionOf(mailer, 'DeploymentReady');
    return condition?.reason === reason ? condition : undefined;
  });
}

describe('on the real control plane, DeploymentReady of a Deployment that is not available', () => {
  it("says the image cannot be pulled, the container crashes, a Secret is missing, as its Pods' statuses change", async () => {
    await admin.apply({
      apiVersion: API,
      kind: 'Mailer',
      metadata: { name: 'orders', namespace: NAMESPACE },
      spec: {},
    });
    // First the Deployment's own verdict: no Pod says anything yet.
    expect(await deploymentReady('MinimumReplicasUnavailable')).toMatchObject({ status: 'False' });
    const [pod] = await admin.waitFor('the unscheduled Pod', async () => {
      const pods = await admin.list('v1', 'Pod', NAMESPACE);
      return pods.length === 1 ? pods : undefined;
    });

    const pullMessage = `Back-off pulling image "${IMAGE}"`;
    await kubeletWrites(pod!, { reason: 'ImagePullBackOff', message: pullMessage });
    expect(await deploymentReady('ImagePullBackOff')).toEqual(
      expect.objectContaining({
        status: 'False',
        message: `image "${IMAGE}" of container "adapter" cannot be pulled: ${pullMessage}`,
      }),
    );

    await kubeletWrites(
      pod!,
      { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=adapter' },
      {
        restartCount: 4,
        lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: null, finishedAt: null } },
      },
    );
    expect(await deploymentReady('CrashLoopBackOff')).toEqual(
      expect.objectContaining({
        status: 'False',
        message:
          'container "adapter" is crashing (restarted 4 times, last exit code 1): back-off 1m20s restarting failed container=adapter',
      }),
    );

    await kubeletWrites(pod!, {
      reason: 'CreateContainerConfigError',
      message: 'secret "mailer-credentials" not found',
    });
    expect(await deploymentReady('CreateContainerConfigError')).toEqual(
      expect.objectContaining({
        status: 'False',
        message:
          'container "adapter" cannot start, a Secret or ConfigMap it reads is missing: secret "mailer-credentials" not found',
      }),
    );
    // Ready=False as §8.4 says; DeploymentReady carries the why.
    const mailer = await admin.get(API, 'Mailer', NAMESPACE, 'orders');
    expect(conditionOf(mailer, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'CONDITIONSNOTOK',
    });
  });
});
