/**
 * What `scoby render` prints. YAML is a stream `kubectl apply -f -` takes (like `crossplane render`):
 * the instance with its status first, then each child. JSON is the `{children, status, warnings}`
 * document. Warnings also go to stderr, one line each, so a piped stream holds only objects.
 */
import type { KubeObject } from '@scoby/kube-objects';
import { stringify } from 'yaml';
import type { Warning } from '../../instance/plan/warnings.ts';
import type { RenderOutput } from './offline-render.ts';

/** Set by the API server; an applied object carrying them would conflict with the stored one. */
const SERVER_SET = [
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'managedFields',
  'selfLink',
] as const;

/** The instance document: uid kept, as it names the children's owner. */
function appliable(instance: KubeObject): KubeObject {
  const metadata = { ...instance.metadata };
  for (const field of SERVER_SET) delete metadata[field];
  return { ...instance, metadata };
}

export function formatOutput(output: RenderOutput, instance: KubeObject, format: 'yaml' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(output, null, 2)}\n`;
  const documents = [appliable(instance), ...Object.values(output.children)];
  return documents.map((document) => stringify(document, { lineWidth: 0 })).join('---\n');
}

export function formatWarning(warning: Warning): string {
  return `Warning: ${warning.reason}: ${warning.message}\n`;
}
