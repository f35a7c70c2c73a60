/**
 * A registration whose instance controller takes longer to sync than the controller waits at a time
 * (its instances' list refused with 503 and Retry-After for a while): the registration still becomes
 * Ready once the caches have synced, and the slow sync is logged. A registration is reconciled again
 * only when its controller announces the sync, so a sync that outlasted one wait used to leave it at
 * ControllerReady=Unknown for good while its instances were reconciled. So does a registration
 * whose running controller is reconfigured to watch a child kind it has not listed yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '@scoby/controller-runtime/testing';
import { startTestCluster, crdFor, type TestCluster } from '../support/cluster.ts';
import {
  conditionOf,
  editRegistration,
  namespaceObject,
  registrationObject,
  registrationTarget,
  sleep,
  waitForCondition,
} from '../support/scoby.ts';

const SYNC_WARN_AFTER_MS = 500;
const REFUSED_MS = 3000;
const logs = captureLogs('info');
let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({
    user: 'scoby',
    limits: { syncWarnAfterMs: SYNC_WARN_AFTER_MS },
    logger: logs.logger,
  });
  await cluster.apply(namespaceObject('shop'));
  await cluster.apply(crdFor({ group: 'slow.example.com', kind: 'Kettle', plural: 'kettles' }));
});
afterAll(() => cluster.stop());

describe('an instance controller slower to sync than one wait', () => {
  it('makes its registration Ready once synced, and logs that it is still waiting', async () => {
    const heal = cluster.server.faults.throttle(
      { verb: 'list', resource: 'kettles', user: 'scoby' },
      { retryAfterSeconds: 1, code: 503 },
    );
    await cluster.apply(
      registrationObject('kettle', {
        crd: 'kettles.slow.example.com',
        workload: { fromImage: { repo: 'registry.example.com/kettle:1' } },
      }),
    );
    await sleep(REFUSED_MS);
    const whileRefused = await cluster.get(
      registrationTarget('kettle').apiVersion,
      'CRDRegistration',
      undefined,
      'kettle',
    );
    expect(conditionOf(whileRefused, 'ControllerReady')?.status).toBe('Unknown');
    heal();

    await waitForCondition(cluster, registrationTarget('kettle'), 'Ready', 'True', undefined, 15_000);
    const waiting = logs
      .lines()
      .filter((line) => line.msg === 'instance controller caches not synced yet; still waiting');
    expect(waiting.length).toBeGreaterThanOrEqual(1);
    expect(waiting[0]).toMatchObject({ level: 'warn', registration: 'kettle', waitedMs: SYNC_WARN_AFTER_MS });
  });
});

describe('an instance controller reconfigured to a child kind it has not listed yet', () => {
  it('makes its registration Ready once the new kind has synced', async () => {
    await cluster.apply(crdFor({ group: 'slow.example.com', kind: 'Teapot', plural: 'teapots' }));
    await cluster.apply(
      registrationObject('teapot', {
        crd: 'teapots.slow.example.com',
        workload: { fromImage: { repo: 'registry.example.com/teapot:1' } },
      }),
    );
    await waitForCondition(cluster, registrationTarget('teapot'), 'Ready', 'True', undefined, 15_000);

    // Knative Serving installed after the registration started: its Services are a child kind the
    // running controller does not watch yet. Their list is refused for a while.
    await cluster.apply(crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' }));
    const heal = cluster.server.faults.throttle(
      { verb: 'list', resource: 'services', user: 'scoby' },
      { retryAfterSeconds: 1, code: 503 },
    );
    await editRegistration(cluster, 'teapot', (spec) => {
      (spec.workload as Record<string, unknown>).formFactor = { knativeService: {} };
    });
    await waitForCondition(
      cluster,
      registrationTarget('teapot'),
      'ControllerReady',
      'Unknown',
      undefined,
      5_000,
    );
    heal();

    await waitForCondition(cluster, registrationTarget('teapot'), 'Ready', 'True', undefined, 15_000);
    expect(logs.lines().filter((line) => line.msg === 'instance controller reconfigured')).toEqual([
      expect.objectContaining({ registration: 'teapot', formFactor: 'knativeService' }),
    ]);
  });
});

describe('an instance controller reconfigured while its first sync is awaited', () => {
  it('says it is still waiting in the words of its configuration now', async () => {
    await cluster.apply(crdFor({ group: 'slow.example.com', kind: 'Mug', plural: 'mugs' }));
    await cluster.apply(crdFor({ group: 'serving.knative.dev', kind: 'Service', plural: 'services' }));
    const heal = cluster.server.faults.throttle(
      { verb: 'list', resource: 'mugs', user: 'scoby' },
      { retryAfterSeconds: 1, code: 503 },
    );
    await cluster.apply(
      registrationObject('mug', {
        crd: 'mugs.slow.example.com',
        workload: { fromImage: { repo: 'registry.example.com/mug:1' } },
      }),
    );
    const waitingLines = () =>
      logs
        .lines()
        .filter(
          (line) =>
            line.msg === 'instance controller caches not synced yet; still waiting' &&
            line.registration === 'mug',
        );
    await cluster.waitFor('a first wait run out', async () => waitingLines().length > 0);
    expect(waitingLines()[0]).toMatchObject({ formFactor: 'deployment' });

    await editRegistration(cluster, 'mug', (spec) => {
      (spec.workload as Record<string, unknown>).formFactor = { knativeService: {} };
    });
    await cluster.waitFor('the controller reconfigured', async () =>
      logs
        .lines()
        .some((line) => line.msg === 'instance controller reconfigured' && line.registration === 'mug'),
    );
    const before = waitingLines().length;
    await cluster.waitFor('another wait run out', async () => waitingLines().length > before);
    expect(waitingLines().at(-1)).toMatchObject({ formFactor: 'knativeService' });
    heal();

    await waitForCondition(cluster, registrationTarget('mug'), 'Ready', 'True', undefined, 15_000);
  });
});
