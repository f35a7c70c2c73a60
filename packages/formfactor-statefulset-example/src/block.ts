import type { JsonObject } from '@scoby/kube-objects';

/** What a registration writes under `spec.workload.formFactor.statefulSet`, after defaults. */
export interface StatefulSetBlock {
  replicas: number;
  /** The adapter's HTTP port; when set, the instance's address points at it. */
  port?: number;
}

export const STATEFUL_SET_BLOCK_SCHEMA: JsonObject = {
  type: 'object',
  additionalProperties: false,
  properties: {
    replicas: { type: 'integer', minimum: 0, default: 1 },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
  },
};
