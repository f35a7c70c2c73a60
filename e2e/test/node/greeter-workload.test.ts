/**
 * The Greeter sample on the node container, its adapter a real process (greeter-env answers HTTP with
 * the environment it received): the env the process printed is exactly the env Scoby rendered into
 * the Deployment, and the instance's status.address.url answers from another pod.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterOf, clusterForScenario, conditionOf, statusOf, type ClusterHandle } from '../../src/index.ts';
import { realPodsOrReason } from '../../src/node-only.ts';
import { fetchFromPod } from '../../src/pods.ts';

const samples = new URL('../../../apps/controller/samples/', import.meta.url);
const NAMESPACE = 'greeter-pods';
const skipped = realPodsOrReason();

let cluster: ClusterHandle;
beforeAll(async () => {
  if (skipped !== undefined) return;
  cluster = clusterForScenario();
  const sample = async (file: string) => readFile(new URL(file, samples), 'utf8');
  await cluster.apply(await sample('greeter-crd.yaml'));
  await cluster.apply(await sample('greeter-clusterrole.yaml'));
  await cluster.apply(
    (await sample('greeter-registration.yaml')).replace(
      'registry.example.com/samples/greeter:1.0.0',
      'scoby.local/greeter-env:dev',
    ),
  );
  await cluster.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await cluster.apply(
    (await sample('greeter-instance.yaml')).replace('namespace: default', `namespace: ${NAMESPACE}`),
  );
});
afterAll(() => cluster?.close());

describe.skipIf(skipped !== undefined)('a Greeter on real pods', () => {
  it('becomes Ready once its adapter pod runs', async () => {
    const greeter = await cluster.waitForObject(
      'samples.scoby.dev/v1alpha1',
      'Greeter',
      NAMESPACE,
      'hello',
      'to be Ready',
      (object) => conditionOf(object, 'Ready')?.status === 'True',
    );
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
