/**
 * The Greeter sample on the node container, its adapter a real process (greeter-env answers HTTP with
 * the environment it received): the env the process printed is exactly the env Scoby rendered into
 * the Deployment, and the instance's status.address.url answers from another pod.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterOf, clusterForScenario, statusOf, type ClusterHandle } from '../../src/index.ts';
import { applyGreeter, applyGreeterSample, waitForReadyGreeter } from '../../src/greeter-sample.ts';
import { realPodsOrReason } from '../../src/node-only.ts';
import { fetchFromPod } from '../../src/pods.ts';

const NAMESPACE = 'greeter-pods';
const skipped = realPodsOrReason();

let cluster: ClusterHandle;
beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  await applyGreeterSample(cluster, NAMESPACE);
  await applyGreeter(cluster, NAMESPACE, 'hello', 'Hello from Scoby');
});
afterAll(() => cluster?.close());

describe.skipIf(skipped !== undefined)('a Greeter on real pods', () => {
  it('becomes Ready once its adapter pod runs', async () => {
    const greeter = await waitForReadyGreeter(cluster, NAMESPACE, 'hello');
    expect(statusOf(greeter).address).toEqual({ url: `http://greeter-hello.${NAMESPACE}.svc.cluster.local` });
  });

  it('hands the workload process exactly the env Scoby rendered (asked through its Service from another pod)', async () => {
    const deployment = await cluster.waitForObject(
      'apps/v1',
      'Deployment',
      NAMESPACE,
      'greeter-hello',
      'to exist',
    );
    const rendered = (adapterOf(deployment)?.env ?? []) as {
      name: string;
      value?: string;
      valueFrom?: { fieldRef?: { fieldPath: string } };
    }[];
    const expected = Object.fromEntries(
      rendered.map((variable) => [
        variable.name,
        variable.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace' ? NAMESPACE : variable.value,
      ]),
    );
    expect(expected).toEqual({
      GREETING: 'Hello from Scoby',
      GREETER_LANGUAGE: 'en',
      POD_NAMESPACE: NAMESPACE,
    });
    const answer = await fetchFromPod(
      cluster,
      NAMESPACE,
      'ask-env',
      `http://greeter-hello.${NAMESPACE}.svc.cluster.local/env`,
    );
    expect(answer.status).toBe(200);
    const printed = (answer.body as { env: Record<string, string> }).env;
    console.log(
      `[e2e] greeter-env printed: ${JSON.stringify(Object.fromEntries(Object.keys(expected).map((name) => [name, printed[name]])))}`,
    );
    expect(Object.fromEntries(Object.keys(expected).map((name) => [name, printed[name]]))).toEqual(expected);
  });

  it('answers at status.address.url from another pod', async () => {
    const greeter = await cluster.get('samples.scoby.dev/v1alpha1', 'Greeter', NAMESPACE, 'hello');
    const url = String((statusOf(greeter).address as { url: string }).url);
    const answer = await fetchFromPod(cluster, NAMESPACE, 'ask-address', url);
    console.log(`[e2e] ${url} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
    expect(answer).toMatchObject({ status: 200, body: { path: '/' } });
  });
});
