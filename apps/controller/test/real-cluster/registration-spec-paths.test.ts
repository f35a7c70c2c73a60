/**
 * docs/spec/registration.md §5.5 on the real control plane: a spec path the registered CRD's
 * schema lacks is a warning on the registration (condition, Event, log line), not a refusal.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { captureLogs } from '@scoby/controller-runtime/testing';
import type { RunningProcess } from '../../src/index.ts';
import { SPEC_PATHS_GROUP, typoInEnvPath } from '../support/spec-paths-scenario.ts';
import { registeredKindRole } from './support/grants.ts';
import { realClusterAdmin, startRealController } from './support/real-cluster.ts';

const logs = captureLogs('info');
const admin = realClusterAdmin();
let controller: RunningProcess;

beforeAll(async () => {
  await admin.apply(registeredKindRole(SPEC_PATHS_GROUP, 'greeters'));
  controller = startRealController({ logger: logs.logger });
});
afterAll(async () => {
  await controller?.stop();
  await admin.stop();
});

describe('on the real control plane, a fromSpec path the CRD schema lacks', () => {
  it('leaves the registration Ready and says so in a warning condition, an Event and a log line', async () => {
    await typoInEnvPath(admin, logs.lines);
  });
});
