/** The children of the `deployment` form factor (docs/spec/children-and-status.md §3.1, §3.2). */
import { standardMetadata, type RenderInput } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import type { DeploymentBlock } from './block.ts';

export function renderDeployment(input: RenderInput<DeploymentBlock>): Record<string, KubeObject> {
  const { block, standard } = input;
  const deployment: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    // Deployments take dotted names; Services do not (DNS-1035 labels).
    metadata: standardMetadata(input, {}, 'subdomain'),
    spec: {
      replicas: block.replicas,
      selector: { matchLabels: { ...standard.selectorLabels } },
      template: {
        metadata: { labels: { ...standard.selectorLabels } },
        spec: input.podSpec,
      },
    },
  };
  if (block.service === undefined) return { deployment };
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: standardMetadata(input),
    spec: {
      selector: { ...standard.selectorLabels },
      ports: [{ port: block.service.port, targetPort: block.service.targetPort, protocol: 'TCP' }],
    },
  };
  return { deployment, service };
}
