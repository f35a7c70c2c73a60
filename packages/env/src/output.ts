import type { Volume, VolumeMount } from '@scoby/kube-objects';
import type { EnvCandidate } from './collisions.ts';

/** What the renderers of one instance accumulate, before collisions are settled and lists sorted. */
export interface RenderOutput {
  candidates: EnvCandidate[];
  volumes: Volume[];
  volumeMounts: VolumeMount[];
  errors: string[];
}
