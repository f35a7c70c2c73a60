/** The child of the `knativeService` form factor (docs/spec/children-and-status.md §3.3). */
import { standardMetadata, type RenderInput } from '@scoby/formfactor';
import type { KubeObject } from '@scoby/kube-objects';
import type { KnativeServiceBlock } from './block.ts';

export const VISIBILITY_LABEL = 'networking.knative.dev/visibility';
export const MIN_SCALE_ANNOTATION = 'autoscaling.knative.dev/min-scale';
export const MAX_SCALE_ANNOTATION = 'autoscaling.knative.dev/max-scale';

function scaleAnnotations(block: KnativeServiceBlock): Record<string, string> {
  const annotations: Record<string, string> = {};
  if (block.minScale !== undefined) annotations[MIN_SCALE_ANNOTATION] = String(block.minScale);
  if (block.maxScale !== undefined) annotations[MAX_SCALE_ANNOTATION] = String(block.maxScale);
  return annotations;
}

export function renderKnativeService(input: RenderInput<KnativeServiceBlock>): Record<string, KubeObject> {
  const { block } = input;
  const annotations = scaleAnnotations(block);
  const visibility: Record<string, string> =
    block.visibility === undefined ? {} : { [VISIBILITY_LABEL]: block.visibility };
  // No template labels and no traffic block: Knative fills in its own defaults.
  const ksvc: KubeObject = {
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    metadata: standardMetadata(input, visibility),
    spec: {
      template: {
        ...(Object.keys(annotations).length > 0 ? { metadata: { annotations } } : {}),
        spec: input.podSpec,
      },
    },
  };
  return { ksvc };
}
