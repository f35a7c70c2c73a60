import type { ConditionResult, FormFactorStatus, StatusInput } from '@scoby/formfactor';
import { isPlainObject, serviceUrl, type KubeObject } from '@scoby/kube-objects';
import type { StatefulSetBlock } from './block.ts';

function integerAt(value: unknown, key: string): number | undefined {
  const field = isPlainObject(value) ? value[key] : undefined;
  return typeof field === 'number' ? field : undefined;
}

/** Ready when the observed StatefulSet has as many ready replicas as the final child asks for. */
export function statefulSetReady(
  desired: KubeObject | undefined,
  observed: KubeObject | undefined,
): ConditionResult {
  if (observed === undefined) return { status: 'Unknown', reason: 'StatefulSetUnknown', message: '' };
  const wanted = integerAt(desired?.spec, 'replicas') ?? 1;
  const ready = integerAt(observed.status, 'readyReplicas') ?? 0;
  return ready >= wanted
    ? { status: 'True', reason: 'AllReplicasReady', message: '' }
    : { status: 'False', reason: 'ReplicasNotReady', message: `${ready} of ${wanted} replicas are ready` };
}

export function statefulSetStatus(input: StatusInput<StatefulSetBlock>): FormFactorStatus {
  const { block, children, observed, clusterDomain } = input;
  const service = children['service']?.metadata;
  const address =
    block.port === undefined || service?.name === undefined || service.namespace === undefined
      ? ({ kind: 'unmanaged' } as const)
      : ({
          kind: 'url',
          url: serviceUrl(service.name, service.namespace, clusterDomain, block.port),
        } as const);
  return {
    conditions: { StatefulSetReady: statefulSetReady(children['statefulSet'], observed['statefulSet']) },
    address,
  };
}
