/** The `deployment` block (docs/spec/registration.md §3.1). */
import type { JsonObject } from '@scoby/kube-objects';

export interface DeploymentBlock {
  replicas: number;
  service?: { port: number; targetPort: number };
}

const PORT_SCHEMA = { type: 'integer', minimum: 1, maximum: 65535 };
const PORT_MESSAGE = 'must be an integer between 1 and 65535';

export const DEPLOYMENT_BLOCK_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    replicas: { type: 'integer', minimum: 0, default: 1 },
    service: {
      type: 'object',
      required: ['port', 'targetPort'],
      properties: { port: PORT_SCHEMA, targetPort: PORT_SCHEMA },
    },
  },
};

/** The spec's wording (docs/spec/registration.md §4 row 3) instead of the validator's `must be >= 1`. */
export const DEPLOYMENT_FIELD_MESSAGES: Record<string, string> = {
  replicas: 'must be an integer greater than or equal to 0',
  'service.port': PORT_MESSAGE,
  'service.targetPort': PORT_MESSAGE,
};
