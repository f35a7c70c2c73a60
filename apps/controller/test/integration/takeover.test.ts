/**
 * test/support/takeover-scenario.ts on the in-memory API server, whose request log adds what the real
 * control plane cannot show: not one request but GET reached the other team's objects.
 */
import { IN_MEMORY, inMemoryBackend } from '../support/backend.ts';
import { startTestCluster } from '../support/cluster.ts';
import { takeoverScenario } from '../support/takeover-scenario.ts';

takeoverScenario(IN_MEMORY, async () => inMemoryBackend(await startTestCluster()));
