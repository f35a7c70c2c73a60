/** The `knativeService` block (docs/spec/registration.md §3.1). */
import type { JsonObject } from '@scoby/kube-objects';

export interface KnativeServiceBlock {
  minScale?: number;
  maxScale?: number;
  /** Copied verbatim; documented values `cluster-local` and `public`. */
  visibility?: string;
}

const SCALE_SCHEMA = { type: 'integer', minimum: 0 };
const SCALE_MESSAGE = 'must be an integer greater than or equal to 0';

export const KNATIVE_SERVICE_BLOCK_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    minScale: SCALE_SCHEMA,
    maxScale: SCALE_SCHEMA,
    visibility: { type: 'string' },
  },
};

export const KNATIVE_SERVICE_FIELD_MESSAGES: Record<string, string> = {
  minScale: SCALE_MESSAGE,
  maxScale: SCALE_MESSAGE,
};
