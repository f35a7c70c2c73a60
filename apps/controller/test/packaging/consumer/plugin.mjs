// A form-factor plugin as a user writes it in their own project: plain JavaScript on the published
// @scoby/formfactor contract. It runs the adapter as a single Pod.
import { standardMetadata } from '@scoby/formfactor';

export default {
  name: 'pod',
  blockSchema: {
    type: 'object',
    properties: { restartPolicy: { type: 'string', enum: ['Always', 'Never'], default: 'Always' } },
    additionalProperties: false,
  },
  requiredApis: ['v1'],
  managedKinds: [{ apiVersion: 'v1', kind: 'Pod' }],
  conditionTypes: ['PodReady'],
  render: (input) => ({
    pod: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: standardMetadata(input),
      spec: { ...input.podSpec, restartPolicy: input.block.restartPolicy },
    },
  }),
  status: ({ observed }) => ({
    conditions: {
      PodReady:
        observed.pod === undefined
          ? { status: 'Unknown', reason: 'PodNotObserved', message: '' }
          : { status: 'True', reason: 'PodObserved', message: '' },
    },
    address: { kind: 'none' },
  }),
};
