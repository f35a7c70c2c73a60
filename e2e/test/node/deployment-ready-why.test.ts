/**
 * docs/spec/children-and-status.md §8.3 on a real kubelet: a registration's workload that really fails
 * and DeploymentReady saying why, from the waiting reasons the kubelet wrote into its Pods. An image no
 * node holds cannot be pulled (no registry is reachable here); a Secret the env reads is missing; the
 * greeter-env process exits at once when PORT is no port, so its container crashes. Once the Secret
 * exists the instance becomes Ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@scoby/kube-objects';
import { clusterForScenario, conditionOf, registeredKindYaml, type ClusterHandle } from '../../src/index.ts';
import { GREETER_ENV_IMAGE, isReady } from '../../src/greeter-sample.ts';
import { realPodsOrReason } from '../../src/node-only.ts';

const NAMESPACE = 'why-pods';
const GROUP = 'whypods.e2e.scoby.dev';
const API = `${GROUP}/v1`;
const MIRROR = { group: GROUP, kind: 'Mirror', plural: 'mirrors' };
const RELAY = { group: GROUP, kind: 'Relay', plural: 'relays' };
const NOT_BUILT_IMAGE = 'scoby.local/not-built:v0';
const skipped = realPodsOrReason();

let cluster: ClusterHandle;

beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  await cluster.apply(registeredKindYaml(MIRROR, NAMESPACE));
  await cluster.apply(registeredKindYaml(RELAY, NAMESPACE));
  await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: whypods-mirror}
spec:
  crd: mirrors.${GROUP}
  workload:
    fromImage: {repo: ${NOT_BUILT_IMAGE}}
---
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: whypods-relay}
spec:
  crd: relays.${GROUP}
  workload:
    fromImage: {repo: ${GREETER_ENV_IMAGE}}
    parameterConfiguration:
      fromSpec:
        toEnv:
        - path: spec.credentials
          name: RELAY_TOKEN
          valueFrom:
            secretPath: {name: spec.credentials.secretName, key: spec.credentials.key}
`);
  for (const name of ['whypods-mirror', 'whypods-relay']) {
    await cluster.waitForObject(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      name,
      'to be Ready',
      isReady,
    );
  }
});
afterAll(() => cluster?.close());

/** The instance once its DeploymentReady condition has one of `reasons`; prints the condition. */
async function deploymentReadyWith(kind: string, name: string, reasons: readonly string[]) {
  const instance = await cluster.waitForObject(
    API,
    kind,
    NAMESPACE,
    name,
    `DeploymentReady ${reasons.join(' or ')}`,
    (object) => reasons.includes(conditionOf(object, 'DeploymentReady')?.reason ?? ''),
  );
  const condition = conditionOf(instance, 'DeploymentReady');
  console.log(`[e2e] ${kind} ${NAMESPACE}/${name} DeploymentReady: ${JSON.stringify(condition)}`);
  return { instance, condition };
}

function applyInstance(kind: string, name: string, spec: Record<string, unknown>): Promise<KubeObject[]> {
  return cluster.apply({ apiVersion: API, kind, metadata: { name, namespace: NAMESPACE }, spec });
}

describe.skipIf(skipped !== undefined)('DeploymentReady of a workload that fails on a real kubelet', () => {
  it('says the image cannot be pulled', async () => {
    await applyInstance('Mirror', 'unpulled', {});
    const { instance, condition } = await deploymentReadyWith('Mirror', 'unpulled', [
      'ErrImagePull',
      'ImagePullBackOff',
    ]);
    // The kubelet's own detail (containerd's resolve error, or its back-off) follows the colon.
    expect(condition).toEqual({
      type: 'DeploymentReady',
      status: 'False',
      reason: expect.stringMatching(/^(ErrImagePull|ImagePullBackOff)$/),
      message: expect.stringMatching(
        new RegExp(
          `^image "${NOT_BUILT_IMAGE.replaceAll('.', '\\.')}" of container "adapter" cannot be pulled: .+`,
        ),
      ),
    });
    expect(conditionOf(instance, 'Ready')).toMatchObject({ status: 'False', reason: 'CONDITIONSNOTOK' });
  });

  it('says a Secret the env reads is missing, and the instance becomes Ready once it exists', async () => {
    await applyInstance('Relay', 'no-secret', {
      credentials: { secretName: 'relay-credentials', key: 'token' },
    });
    const { instance, condition } = await deploymentReadyWith('Relay', 'no-secret', [
      'CreateContainerConfigError',
    ]);
    expect(condition).toEqual({
      type: 'DeploymentReady',
      status: 'False',
      reason: 'CreateContainerConfigError',
      message:
        'container "adapter" cannot start, a Secret or ConfigMap it reads is missing: secret "relay-credentials" not found',
    });
    expect(conditionOf(instance, 'Ready')).toMatchObject({ status: 'False', reason: 'CONDITIONSNOTOK' });

    await cluster.apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'relay-credentials', namespace: NAMESPACE },
      stringData: { token: 's3cret' },
    });
    const ready = await cluster.waitForObject(API, 'Relay', NAMESPACE, 'no-secret', 'to be Ready', isReady);
    console.log(
      `[e2e] Relay ${NAMESPACE}/no-secret after the Secret: ${JSON.stringify(conditionOf(ready, 'DeploymentReady'))}`,
    );
    expect(conditionOf(ready, 'DeploymentReady')).toMatchObject({ status: 'True' });
  });

  it('says the container is crashing, with its restarts and exit code', async () => {
    // greeter-env listens on PORT: a PORT that is no port makes it throw at start and exit with 1.
    await applyInstance('Relay', 'crashing', { port: 'not-a-port' });
    const { condition } = await deploymentReadyWith('Relay', 'crashing', ['CrashLoopBackOff']);
    expect(condition).toEqual({
      type: 'DeploymentReady',
      status: 'False',
      reason: 'CrashLoopBackOff',
      message: expect.stringMatching(
        /^container "adapter" is crashing \(restarted [1-9]\d* times, last exit code 1\): back-off \S+ restarting failed container=adapter pod=whypods-relay-crashing-.+$/,
      ),
    });
  });
});
