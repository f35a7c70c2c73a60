/**
 * docs/spec/registration.md §5.5 on the in-memory server: a spec path the registered CRD's schema
 * lacks is a warning on the registration (condition, Event, log line), not a refusal.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { captureLogs } from '@scoby/controller-runtime/testing';
import { startTestCluster, type TestCluster } from '../support/cluster.ts';
import { typoInEnvPath } from '../support/spec-paths-scenario.ts';

const logs = captureLogs('info');
let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster({ logger: logs.logger });
});
afterAll(async () => {
  await cluster.stop();
});

describe('a fromSpec path the CRD schema lacks', () => {
  it('leaves the registration Ready and says so in a warning condition, an Event and a log line', async () => {
    await typoInEnvPath(cluster, logs.lines);
  });
});
