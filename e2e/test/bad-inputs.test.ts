/**
 * Bad inputs are reported where their author looks, and disturb nothing else: an invalid registration,
 * an instance whose secretPath names a missing leaf, and a hook answering garbage, all while a healthy
 * registration keeps running untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_IMAGE,
  clusterForScenario,
  conditionOf,
  conditionsOf,
  hookHost,
  registeredKindYaml,
  startGarbageHook,
  type ClusterHandle,
  type GarbageHook,
} from '../src/index.ts';

const GROUP = 'bad.e2e.scoby.dev';
const isReady = (object: Parameters<typeof conditionOf>[0]) =>
  conditionOf(object, 'Ready')?.status === 'True';

let cluster: ClusterHandle;
let garbage: GarbageHook;
let steadyFingerprint: unknown;

/** What a write by Scoby would change: generation (spec) and the annotations carrying the desired hash. */
const fingerprint = (object: Parameters<typeof conditionOf>[0]) => ({
  generation: object?.metadata.generation,
  annotations: object?.metadata.annotations,
});

beforeAll(async () => {
  cluster = clusterForScenario();
  garbage = await startGarbageHook(hookHost());
  for (const [kind, plural] of [
    ['Steady', 'steadies'],
    ['Gadget', 'gadgets'],
    ['Job', 'jobs'],
    ['Widget', 'widgets'],
  ] as const) {
    await cluster.apply(registeredKindYaml({ group: GROUP, kind, plural }, 'bad'));
  }
  await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: steady}
spec:
  crd: steadies.${GROUP}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
---
apiVersion: ${GROUP}/v1
kind: Steady
metadata: {name: calm, namespace: bad}
spec: {mood: calm}
`);
  await cluster.waitForObject(`${GROUP}/v1`, 'Steady', 'bad', 'calm', 'to be Ready', isReady);
  steadyFingerprint = fingerprint(await cluster.get('apps/v1', 'Deployment', 'bad', 'steady-calm'));
});
afterAll(async () => {
  cluster.close();
  await garbage.close();
});

const gadgetRegistration = (formFactor: string, timeout: string) => `
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: gadget}
spec:
  crd: gadgets.${GROUP}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    formFactor: ${formFactor}
  hook:
    version: v1
    address: {uri: "http://127.0.0.1:9/"}
    timeout: ${timeout}
`;

describe('bad inputs', () => {
  it('reports an invalid registration with every problem, and runs it once fixed', async () => {
    await cluster.apply(
      gadgetRegistration('{deployment: {replicas: 1}, knativeService: {minScale: 1}}', '10s'),
    );
    await cluster.apply(
      `{apiVersion: ${GROUP}/v1, kind: Gadget, metadata: {name: g1, namespace: bad}, spec: {size: 3}}`,
    );
    const invalid = await cluster.waitForObject(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      'gadget',
      'to be rejected',
      (object) => conditionOf(object, 'Ready')?.status === 'False',
    );
    const message =
      'spec.workload.formFactor: exactly one form factor may be set, found "deployment", "knativeService"; ' +
      'spec.hook.timeout: "10s" is not an ISO 8601 duration (for example "PT10S")';
    expect(conditionsOf(invalid)).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'False', reason: 'InvalidFormFactor', message },
      { type: 'Ready', status: 'False', reason: 'InvalidFormFactor', message },
      // Refused until the spec changes: kstatus reads it Failed (registration.md §5.6).
      { type: 'Stalled', status: 'True', reason: 'InvalidFormFactor', message },
    ]);
    await cluster.quiet();
    expect(await cluster.get('apps/v1', 'Deployment', 'bad', 'gadget-g1')).toBeUndefined();

    await cluster.replace(gadgetRegistration('{lambda: {}}', 'PT1S'));
    const unknown = await cluster.waitForObject(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      'gadget',
      'to name the unknown form factor',
      (object) => conditionOf(object, 'Ready')?.message.includes('lambda') === true,
    );
    expect(conditionOf(unknown, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'InvalidFormFactor',
      message:
        'spec.workload.formFactor: unknown form factor "lambda" (available: "deployment", "knativeService", "statefulSet")',
    });

    await cluster.replace(gadgetRegistration('{deployment: {replicas: 1}}', 'PT1S'));
    await cluster.waitForObject(
      'scoby.triggermesh.io/v1alpha1',
      'CRDRegistration',
      undefined,
      'gadget',
      'to be Ready once fixed',
      isReady,
    );
    await cluster.waitForObject('apps/v1', 'Deployment', 'bad', 'gadget-g1', 'to be created once fixed');
  });

  it('fails to render an instance whose secretPath names a missing leaf, and only that instance', async () => {
    await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: job}
spec:
  crd: jobs.${GROUP}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
    parameterConfiguration:
      fromSpec:
        toEnv:
        - path: spec.credentials
          name: DB_PASSWORD
          valueFrom:
            secretPath: {name: spec.credentials.secretName, key: spec.credentials.passwordKey}
---
apiVersion: ${GROUP}/v1
kind: Job
metadata: {name: complete, namespace: bad}
spec:
  credentials: {secretName: db-secret, passwordKey: password}
---
apiVersion: ${GROUP}/v1
kind: Job
metadata: {name: missing-leaf, namespace: bad}
spec:
  credentials: {passwordKey: password}
`);
    const message = 'spec.credentials: valueFrom.secretPath.name: no value at "spec.credentials.secretName"';
    const failed = await cluster.waitForObject(
      `${GROUP}/v1`,
      'Job',
      'bad',
      'missing-leaf',
      'to report RenderFailed',
      (object) => conditionOf(object, 'Ready')?.reason === 'RenderFailed',
    );
    expect(conditionsOf(failed)).toEqual([
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      { type: 'Ready', status: 'False', reason: 'RenderFailed', message },
      // Parked until the spec changes (children-and-status.md §8.12).
      { type: 'Stalled', status: 'True', reason: 'RenderFailed', message },
    ]);
    expect(await cluster.waitForEvents('bad', 'missing-leaf', 'Job', 'RenderFailed')).toEqual([
      { type: 'Warning', reason: 'RenderFailed', message },
    ]);
    expect(await cluster.get('apps/v1', 'Deployment', 'bad', 'job-missing-leaf')).toBeUndefined();
    await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      'bad',
      'job-complete',
      'to be created for the healthy instance',
    );
  });

  it('fails an instance whose hook answers garbage, without creating children', async () => {
    await cluster.apply(`
apiVersion: scoby.triggermesh.io/v1alpha1
kind: CRDRegistration
metadata: {name: widget}
spec:
  crd: widgets.${GROUP}
  workload:
    fromImage: {repo: ${ADAPTER_IMAGE}}
  hook:
    version: v1
    address: {uri: "${garbage.url}"}
    capabilities: [pre-reconcile]
---
apiVersion: ${GROUP}/v1
kind: Widget
metadata: {name: w1, namespace: bad}
spec: {color: red}
`);
    const message = 'pre-reconcile hook: invalid response: body is not a JSON object';
    const failed = await cluster.waitForObject(
      `${GROUP}/v1`,
      'Widget',
      'bad',
      'w1',
      'to report HookFailed',
      (object) => conditionOf(object, 'Ready')?.reason === 'HookFailed',
    );
    expect(conditionsOf(failed)).toEqual([
      { type: 'DeploymentReady', status: 'Unknown', reason: 'UNKNOWN', message: '' },
      { type: 'Ready', status: 'False', reason: 'HookFailed', message },
      // Retried (§8.12).
      { type: 'Reconciling', status: 'True', reason: 'HookFailed', message },
    ]);
    expect(await cluster.waitForEvents('bad', 'w1', 'Widget', 'HookFailed')).toEqual([
      { type: 'Warning', reason: 'HookFailed', message },
    ]);
    expect(await cluster.get('apps/v1', 'Deployment', 'bad', 'widget-w1')).toBeUndefined();
    console.log(`[e2e] garbage hook ${garbage.url} answered: ${JSON.stringify(garbage.requests)}`);
    expect(garbage.requests.length).toBeGreaterThan(0);
    expect(new Set(garbage.requests)).toEqual(new Set(['POST /']));
  });

  it('left the healthy registration and its instance exactly as they were', async () => {
    expect(
      conditionsOf(
        await cluster.get('scoby.triggermesh.io/v1alpha1', 'CRDRegistration', undefined, 'steady'),
      ),
    ).toEqual([
      { type: 'CRDExists', status: 'True', reason: 'CRDEXIST', message: '' },
      { type: 'ControllerReady', status: 'True', reason: 'CONTROLLERSTARTED', message: '' },
      { type: 'Ready', status: 'True', reason: 'CONDITIONSOK', message: '' },
    ]);
    expect(isReady(await cluster.get(`${GROUP}/v1`, 'Steady', 'bad', 'calm'))).toBe(true);
    expect(fingerprint(await cluster.get('apps/v1', 'Deployment', 'bad', 'steady-calm'))).toEqual(
      steadyFingerprint,
    );
  });
});
