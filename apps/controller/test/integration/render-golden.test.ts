/**
 * Golden test on the in-memory API server: `scoby render` prints what the controller
 * writes — the first status write, the children, and with --observed the settled status — for Go
 * Scoby's samples. Here the request log also shows each child's create body equal to the printed child.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import {
  acceptedStream,
  checkGolden,
  registerSample,
  sampleObjects,
  type GoldenSample,
} from '../support/golden-render.ts';
import { namespaceObject } from '../support/scoby.ts';

const SAMPLES: Record<string, GoldenSample> = {
  'kuard with an address reference (no namespace in the manifest)': {
    crd: 'kuard-crd.yaml',
    registration: 'kuard-addressable-registration.yaml',
    instance: 'kuard-addressable-instance.yaml',
    objects: ['kuard-service.yaml'],
    namespace: 'golden-kuard',
  },
  'kafkasource (fields the CRD prunes, a Broker sink)': {
    crd: 'kafkasource-crd.yaml',
    registration: 'kafkasource-registration.yaml',
    instance: 'kafkasource-instance.yaml',
    objects: ['broker.yaml'],
    namespace: 'golden-kafka',
  },
  'httptarget (a schema default in the CRD)': {
    crd: 'httptarget-crd.yaml',
    registration: 'httptarget-registration.yaml',
    instance: 'httptarget-instance.yaml',
    objects: [],
    namespace: 'mynamespace',
  },
};

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(() => cluster.stop());

describe('scoby render equals what the controller wrote (in-memory API server)', () => {
  for (const [name, sample] of Object.entries(SAMPLES)) {
    it(name, async () => {
      await registerSample(cluster, sample, await sampleObjects('broker-crd.yaml'), 20_000);
      cluster.server.requestLog.clear();
      const { children } = await checkGolden(cluster, sample, 20_000);
      const creates = cluster.server.requestLog
        .entries()
        .filter((entry) => entry.method === 'POST' && entry.path.startsWith(`/api`) && entry.code === 201)
        .map((entry) => entry.body)
        .filter((body) => children.some((child) => (body as { kind?: string }).kind === child.kind));
      expect(creates).toEqual(expect.arrayContaining(children));
      expect(creates).toHaveLength(children.length);
    });
  }

  it('the stream of a manifest without a namespace is created by the API server in -n (dry run)', async () => {
    await cluster.apply(namespaceObject('golden-stream'));
    const sample = SAMPLES['kuard with an address reference (no namespace in the manifest)']!;
    expect(await acceptedStream(cluster, sample, 'golden-stream')).toEqual([
      { kind: 'Kuard', name: 'my-kuard-extension', namespace: 'golden-stream' },
      { kind: 'Deployment', name: 'kuard-my-kuard-extension', namespace: 'golden-stream' },
      { kind: 'Service', name: 'kuard-my-kuard-extension', namespace: 'golden-stream' },
    ]);
  });
});
