/**
 * test/support/instance-selection-scenario.ts on the in-memory API server, whose request log shows
 * exactly which Deployment writes a move made. In memory only, first (the controller remembers a
 * grant for a while, and the scenario's registrations are granted): a namespaceSelector without
 * access to Namespaces, which the server's authorizer can refuse for this file alone.
 */
import { describe, expect, it } from 'vitest';
import { IN_MEMORY, inMemoryBackend } from '../support/backend.ts';
import { crdFor, startTestCluster, type TestCluster } from '../support/cluster.ts';
import { instanceSelectionScenario } from '../support/instance-selection-scenario.ts';
import { conditionsOf, registrationObject, registrationTarget, waitForCondition } from '../support/scoby.ts';

let cluster: TestCluster;

describe('a namespaceSelector without Namespace access (in memory only)', () => {
  it('is MissingPermissions naming the Namespace verbs; a registration without one does not ask', async () => {
    const lift = cluster.server.authorization.deny({ verb: 'list', resource: 'namespaces' });
    try {
      await cluster.apply(crdFor({ group: 'guarded.example.com', kind: 'Gate', plural: 'gates' }));
      await cluster.apply(
        registrationObject('guarded', {
          crd: 'gates.guarded.example.com',
          workload: { fromImage: { repo: 'registry.example.com/gate:1' } },
          namespaceSelector: { matchLabels: { env: 'prod' } },
        }),
      );
      const refused = await waitForCondition(
        cluster,
        registrationTarget('guarded'),
        'Ready',
        'False',
        'MissingPermissions',
      );
      expect(conditionsOf(refused)[1]).toEqual({
        type: 'ControllerReady',
        status: 'False',
        reason: 'MissingPermissions',
        message:
          'the controller may not list namespaces (all namespaces); add to the ClusterRole scoby-controller ' +
          '(deploy/10-rbac.yaml) the rules {apiGroups: [""], resources: [namespaces], verbs: [get, list, watch]} ' +
          '(see https://github.com/scoby-ts/scoby/blob/main/docs/migration.md)',
      });
      await cluster.apply(crdFor({ group: 'open.example.com', kind: 'Gate', plural: 'gates' }));
      await cluster.apply(
        registrationObject('open', {
          crd: 'gates.open.example.com',
          workload: { fromImage: { repo: 'registry.example.com/gate:1' } },
        }),
      );
      await waitForCondition(cluster, registrationTarget('open'), 'Ready', 'True');
    } finally {
      lift();
    }
  });
});

instanceSelectionScenario(IN_MEMORY, async () => {
  cluster = await startTestCluster();
  return { ...inMemoryBackend(cluster), settleMs: 300 };
});
