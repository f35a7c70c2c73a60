import type { Volume, VolumeMount } from '@scoby/kube-objects';
import type { EnvCandidate } from './collisions.ts';

/** What the renderers of one instance accumulate, before collisions are settled and lists sorted. */
export interface RenderOutput {
  candidates: EnvCandidate[];
  volumes: Volume[];
  volumeMounts: VolumeMount[];
  errors: string[];
  /**
   * Errors that another object can clear (a controller ConfigMap, an addressed object): rendering
   * again without a change to the spec or the registration may succeed.
   */
  clusterErrors: number;
}
