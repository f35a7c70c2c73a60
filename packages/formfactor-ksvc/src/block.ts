/** The `knativeService` block (docs/spec/registration.md §3.1). */
import type { JsonObject } from '@scoby/kube-objects';

export interface KnativeServiceBlock {
  minScale?: number;
  maxScale?: number;
  /** Copied verbatim; documented values `cluster-local` and `public`. */
  visibility?: string;
}

const scale = (description: string) => ({ type: 'integer', minimum: 0, description });
const SCALE_MESSAGE = 'must be an integer greater than or equal to 0';

/** Its descriptions are the CRDRegistration CRD's too (the registration schema's built-in blocks). */
export const KNATIVE_SERVICE_BLOCK_SCHEMA: JsonObject = {
  type: 'object',
  description:
    'Run each instance as a Knative Service (needs Knative Serving); hooks see the form factor as ksvc.',
  properties: {
    minScale: scale('Minimum number of pods (autoscaling.knative.dev/min-scale).'),
    maxScale: scale('Maximum number of pods (autoscaling.knative.dev/max-scale).'),
    visibility: {
      type: 'string',
      description: 'Copied to the networking.knative.dev/visibility label: cluster-local or public.',
    },
  },
};

export const KNATIVE_SERVICE_FIELD_MESSAGES: Record<string, string> = {
  minScale: SCALE_MESSAGE,
  maxScale: SCALE_MESSAGE,
};
