import { standardMetadata, type RenderInput } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import type { StatefulSetBlock } from './block.ts';

/**
 * A headless Service (key `service`) that gives the pods stable DNS names, and the StatefulSet (key
 * `statefulSet`) that runs the adapter container Scoby built.
 */
export function renderStatefulSet(input: RenderInput<StatefulSetBlock>): Record<string, KubeObject> {
  const { block, standard } = input;
  const ports =
    block.port === undefined ? [] : [{ port: block.port, targetPort: block.port, protocol: 'TCP' }];
  return {
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: standardMetadata(input),
      spec: { clusterIP: 'None', selector: { ...standard.selectorLabels }, ports },
    },
    statefulSet: {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: standardMetadata(input),
      spec: {
        serviceName: standard.name,
        replicas: block.replicas,
        selector: { matchLabels: { ...standard.selectorLabels } },
        template: { metadata: { labels: { ...standard.selectorLabels } }, spec: input.podSpec },
      },
    },
  };
}
