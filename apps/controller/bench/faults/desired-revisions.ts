/**
 * Which revision of an instance's spec a written child carried: the offline render (`scoby render`'s,
 * the controller's own functions) of the instance at each revision the bench wrote gives each child's
 * desired-hash; the hash a write carried names the revision. Instances are rebuilt from what the bench
 * knows (kind, name, uid, the spec of each revision), so deleted ones are judged too.
 */
import type { KubeObject } from '@scoby/kube-objects';
import type { DynamicClient } from '@scoby/controller-runtime';
import { DESIRED_HASH_ANNOTATION } from '../../src/instance/children/child-cache.ts';
import type { Workload } from '../chaos/cluster.ts';
import { specAt } from '../chaos/churn.ts';
import { rendererFor, type Renderer } from '../chaos/invariants.ts';
import { NAMESPACE } from '../world.ts';
import type { RevisionOfHash } from './audit-judge.ts';

export function desiredRevisions(
  client: DynamicClient,
  workloads: readonly Workload[],
  /** The newest revision the bench wrote of an instance (kind, name). */
  newestRevision: (kind: string, name: string) => number,
): RevisionOfHash {
  const renderers = new Map<string, Promise<Renderer>>();
  const known = new Map<string, { upTo: number; revisions: Map<string, number> }>();
  const rendererOf = (kind: string): Promise<Renderer> | undefined => {
    const workload = workloads.find((each) => each.kind === kind);
    if (workload === undefined) return undefined;
    let renderer = renderers.get(kind);
    if (renderer === undefined) {
      renderer = rendererFor(client, workload);
      renderers.set(kind, renderer);
    }
    return renderer;
  };
  return async (owner, hash) => {
    const renderer = rendererOf(owner.kind);
    if (renderer === undefined) return undefined;
    const render = await renderer;
    const key = `${owner.kind}/${owner.name}/${owner.uid}`;
    const entry = known.get(key) ?? { upTo: 0, revisions: new Map<string, number>() };
    known.set(key, entry);
    const newest = newestRevision(owner.kind, owner.name);
    for (let revision = entry.upTo + 1; revision <= newest; revision++) {
      const workload = workloads.find((each) => each.kind === owner.kind)!;
      const instance: KubeObject = {
        apiVersion: workload.apiVersion,
        kind: owner.kind,
        metadata: { name: owner.name, namespace: NAMESPACE, uid: owner.uid, generation: revision },
        spec: specAt(owner.name, revision),
      };
      const rendered = await render(instance);
      if ('children' in rendered) {
        for (const child of rendered.children) {
          const childHash = child.metadata.annotations?.[DESIRED_HASH_ANNOTATION];
          if (childHash !== undefined) entry.revisions.set(childHash, revision);
        }
      }
      entry.upTo = revision;
    }
    return entry.revisions.get(hash);
  };
}
