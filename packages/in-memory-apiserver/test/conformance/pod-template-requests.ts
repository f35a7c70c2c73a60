/** Requests of the pod template tests: a Deployment around a PodSpec, and a 422's causes in one order. */
import { rawRequest, type Target } from './harness.ts';

export function createDeployment(
  target: Target,
  namespace: string,
  name: string,
  podSpec: Record<string, unknown>,
  query = '',
) {
  return rawRequest(target, 'POST', `/apis/apps/v1/namespaces/${namespace}/deployments${query}`, {
    contentType: 'application/json',
    text: JSON.stringify({
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: podSpec },
      },
    }),
  });
}

export interface Cause {
  reason: string;
  field: string;
  message: string;
}

/** The causes of a 422, sorted by field and message (kube-apiserver's order is its validation's). */
export function sortedCauses(json: unknown): Cause[] {
  const causes = (json as { details?: { causes?: Cause[] } }).details?.causes ?? [];
  return [...causes].sort((a, b) => `${a.field} ${a.message}`.localeCompare(`${b.field} ${b.message}`));
}
