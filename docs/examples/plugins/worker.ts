import { standardMetadata, type FormFactorPlugin } from '@scoby/formfactor';

interface WorkerBlock {
  replicas: number;
}

// A background worker: the adapter as a Deployment with no Service and no address, selected by
// `formFactor: {worker: {replicas: 2}}` in a registration.
const worker: FormFactorPlugin<WorkerBlock> = {
  name: 'worker',
  blockSchema: {
    type: 'object',
    properties: { replicas: { type: 'integer', minimum: 0, default: 1 } },
    additionalProperties: false,
  },
  requiredApis: ['apps/v1'],
  managedKinds: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
  conditionTypes: ['WorkerReady'],
  render: (input) => ({
    worker: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: standardMetadata(input),
      spec: {
        replicas: input.block.replicas,
        selector: { matchLabels: input.standard.selectorLabels },
        template: { metadata: { labels: input.standard.labels }, spec: input.podSpec },
      },
    },
  }),
  status: ({ block, observed }) => {
    const available =
      (observed.worker?.status as { availableReplicas?: number } | undefined)?.availableReplicas ?? 0;
    return {
      conditions: {
        WorkerReady:
          available >= block.replicas
            ? { status: 'True', reason: 'WorkersAvailable', message: '' }
            : {
                status: 'False',
                reason: 'WorkersUnavailable',
                message: `${available} of ${block.replicas} available`,
              },
      },
      address: { kind: 'none' },
    };
  },
  observedFields: ['status'],
};
export default worker;
