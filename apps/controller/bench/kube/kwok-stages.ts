/**
 * The kwok stages the bench's control plane runs with (`kwok-stages.yaml` beside the pinned
 * binaries): how fast a fake node makes a scheduled pod ready sets how fast every Deployment becomes
 * Available, so a run prints them: the file's digest and each stage with its delay.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

interface StageDocument {
  kind?: string;
  metadata?: { name?: string };
  spec?: { delay?: { durationMilliseconds?: number; jitterDurationMilliseconds?: number } };
}

/** `sha256:<12 hex> (name, name after 600 s to 610 s, …)` of the stages file's text. */
export function describeStages(text: string): string {
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const stages = parseAllDocuments(text)
    .map((document) => document.toJS() as StageDocument | null)
    .filter((stage): stage is StageDocument => stage?.kind === 'Stage')
    .map((stage) => {
      const delay = stage.spec?.delay;
      const seconds = (ms: number | undefined) => `${(ms ?? 0) / 1000} s`;
      const when =
        delay === undefined
          ? ''
          : delay.jitterDurationMilliseconds === undefined
            ? ` after ${seconds(delay.durationMilliseconds)}`
            : ` after ${seconds(delay.durationMilliseconds)} to ${seconds(delay.jitterDurationMilliseconds)}`;
      return `${stage.metadata?.name ?? '?'}${when}`;
    });
  return `sha256:${digest} (${stages.join(', ')})`;
}

export async function describeKwokStages(): Promise<string> {
  const { KWOK_STAGES_FILE, locateBinaries } = await import('@scoby/kube-control-plane');
  const binaries = locateBinaries();
  if (!binaries.ok) return `unknown (${binaries.message})`;
  return describeStages(readFileSync(join(binaries.folder, KWOK_STAGES_FILE), 'utf8'));
}
