/** The `deployment` block (docs/spec/registration.md §3.1). */
import type { JsonObject } from '@scoby/kube-objects';

export interface DeploymentBlock {
  replicas: number;
  service?: { port: number; targetPort: number };
}

const port = (description: string) => ({ type: 'integer', minimum: 1, maximum: 65535, description });
const PORT_MESSAGE = 'must be an integer between 1 and 65535';

/** Its descriptions are the CRDRegistration CRD's too (the registration schema's built-in blocks). */
export const DEPLOYMENT_BLOCK_SCHEMA: JsonObject = {
  type: 'object',
  description: 'Run each instance as a Deployment named after it, with an optional Service.',
  properties: {
    replicas: {
      type: 'integer',
      minimum: 0,
      default: 1,
      description: 'Replicas of the Deployment (0 or more). Default 1.',
    },
    service: {
      type: 'object',
      description: 'Also create a ClusterIP Service for the Deployment; its URL becomes status.address.url.',
      required: ['port', 'targetPort'],
      properties: {
        port: port('Port the Service listens on (1-65535).'),
        targetPort: port('Container port the Service forwards to (1-65535).'),
      },
    },
  },
};

/** The spec's wording (docs/spec/registration.md §4 row 3) instead of the validator's `must be >= 1`. */
export const DEPLOYMENT_FIELD_MESSAGES: Record<string, string> = {
  replicas: 'must be an integer greater than or equal to 0',
  'service.port': PORT_MESSAGE,
  'service.targetPort': PORT_MESSAGE,
};
