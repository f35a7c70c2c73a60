import type { KubeObject } from '@scoby/kube-objects';
import { isJsonMap, type JsonMap } from '../json.ts';
import { defaultPodTemplate } from './pod-template.ts';
import type { TypeStrategy } from './strategy.ts';
import {
  validateDeployment,
  validateDeploymentUpdate,
  validateStatefulSet,
  validateStatefulSetUpdate,
} from '../validation/workloads.ts';

function specOf(object: KubeObject): JsonMap {
  return isJsonMap(object.spec) ? object.spec : {};
}

export const deploymentStrategy: TypeStrategy = {
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
  defaults(object: KubeObject): KubeObject {
    const spec = specOf(object);
    return {
      ...object,
      spec: {
        replicas: 1,
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        ...spec,
        template: defaultPodTemplate(spec.template),
      },
    };
  },
  prepareForCreate(object: KubeObject): KubeObject {
    return { ...object, status: {} };
  },
};

export const statefulSetStrategy: TypeStrategy = {
  validate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
  defaults(object: KubeObject): KubeObject {
    const spec = specOf(object);
    return {
      ...object,
      spec: {
        replicas: 1,
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        ...spec,
        template: defaultPodTemplate(spec.template),
      },
    };
  },
  prepareForCreate(object: KubeObject): KubeObject {
    return { ...object, status: { replicas: 0, availableReplicas: 0 } };
  },
};
