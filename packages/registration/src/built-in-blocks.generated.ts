/* Generated from the built-in form factors' blockSchema (apps/controller/src/process/built-in-form-factors.ts) by apps/controller/scripts/generate-built-ins.ts (npm run generate). Do not edit. */
import type { JsonObject } from '@scoby/kube-objects';

/** Each built-in form factor's block schema, by its key under spec.workload.formFactor, in the order they are listed. */
export const BUILT_IN_BLOCK_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  "deployment": {
    "type": "object",
    "description": "Run each instance as a Deployment named after it, with an optional Service.",
    "properties": {
      "replicas": {
        "type": "integer",
        "minimum": 0,
        "default": 1,
        "description": "Replicas of the Deployment (0 or more). Default 1."
      },
      "service": {
        "type": "object",
        "description": "Also create a ClusterIP Service for the Deployment; its URL becomes status.address.url.",
        "required": [
          "port",
          "targetPort"
        ],
        "properties": {
          "port": {
            "type": "integer",
            "minimum": 1,
            "maximum": 65535,
            "description": "Port the Service listens on (1-65535)."
          },
          "targetPort": {
            "type": "integer",
            "minimum": 1,
            "maximum": 65535,
            "description": "Container port the Service forwards to (1-65535)."
          }
        }
      }
    }
  },
  "knativeService": {
    "type": "object",
    "description": "Run each instance as a Knative Service (needs Knative Serving); hooks see the form factor as ksvc.",
    "properties": {
      "minScale": {
        "type": "integer",
        "minimum": 0,
        "description": "Minimum number of pods (autoscaling.knative.dev/min-scale)."
      },
      "maxScale": {
        "type": "integer",
        "minimum": 0,
        "description": "Maximum number of pods (autoscaling.knative.dev/max-scale)."
      },
      "visibility": {
        "type": "string",
        "description": "Copied to the networking.knative.dev/visibility label: cluster-local or public."
      }
    }
  }
};
