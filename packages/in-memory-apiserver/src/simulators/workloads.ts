import type { KubeObject } from '@scoby/kube-objects';
import { isJsonMap } from '../json.ts';
import { condition, type StatusSimulation } from './status-simulator.ts';
import { templateHash } from './template-hash.ts';

function replicasOf(object: KubeObject): number {
  const spec = isJsonMap(object.spec) ? object.spec : {};
  return typeof spec.replicas === 'number' ? spec.replicas : 1;
}

function templateOf(object: KubeObject): unknown {
  return isJsonMap(object.spec) ? object.spec.template : undefined;
}

/** Zero counts are omitted, as Go's omitempty does in the real status. */
function counts(entries: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== 0));
}

/** Every replica of every Deployment becomes ready and available at once. */
export function deploymentSimulation(delayMs: number): StatusSimulation {
  return {
    key: 'deployments.apps',
    delayMs,
    status(object, now) {
      const replicas = replicasOf(object);
      const replicaSet = `${object.metadata.name ?? ''}-${templateHash(templateOf(object))}`;
      return {
        observedGeneration: object.metadata.generation ?? 1,
        ...counts({
          replicas,
          updatedReplicas: replicas,
          readyReplicas: replicas,
          availableReplicas: replicas,
        }),
        conditions: [
          condition(
            object.status,
            'Available',
            'True',
            'MinimumReplicasAvailable',
            'Deployment has minimum availability.',
            now,
            true,
          ),
          condition(
            object.status,
            'Progressing',
            'True',
            'NewReplicaSetAvailable',
            `ReplicaSet "${replicaSet}" has successfully progressed.`,
            now,
            true,
          ),
        ],
      };
    },
  };
}

/** Every replica of every StatefulSet becomes ready, current and updated at once. */
export function statefulSetSimulation(delayMs: number): StatusSimulation {
  return {
    key: 'statefulsets.apps',
    delayMs,
    status(object) {
      const replicas = replicasOf(object);
      const revision = `${object.metadata.name ?? ''}-${templateHash(templateOf(object))}`;
      return {
        observedGeneration: object.metadata.generation ?? 1,
        replicas,
        ...counts({ readyReplicas: replicas, currentReplicas: replicas, updatedReplicas: replicas }),
        availableReplicas: replicas,
        currentRevision: revision,
        updateRevision: revision,
        collisionCount: 0,
      };
    },
  };
}
