/** What an approver does to let a finalize hook agree: Approved=True on the instance's status. */
import type { ClusterHandle } from './handle.ts';
import { conditionsOf } from './objects.ts';

/**
 * Sets the instance's Approved condition to True, as `kubectl patch --subresource=status --type=json`
 * would; retried while the controller rewrites the conditions, done once the instance is gone.
 */
export async function approve(
  cluster: ClusterHandle,
  instance: readonly [apiVersion: string, kind: string, namespace: string, name: string],
): Promise<void> {
  await cluster.waitFor('the approval to be recorded', async () => {
    const current = await cluster.get(...instance);
    if (current === undefined) return true;
    const index = conditionsOf(current).findIndex((condition) => condition.type === 'Approved');
    await cluster.client.jsonPatch(
      current,
      [
        { op: 'test', path: `/status/conditions/${index}/type`, value: 'Approved' },
        { op: 'replace', path: `/status/conditions/${index}/status`, value: 'True' },
        { op: 'replace', path: `/status/conditions/${index}/reason`, value: 'ApprovedByOperator' },
      ],
      'status',
    );
    return true;
  });
}
