import type { ObjectMeta } from '@scoby/kube-objects';
import type { RenderInput } from './contract.ts';

/**
 * `{name, namespace, labels, ownerReferences}` of a child with the standard values (§4), as a fresh
 * copy; `names: 'subdomain'` for a kind whose names may contain dots (see StandardChildMeta).
 */
export function standardMetadata(
  input: RenderInput,
  extraLabels: Record<string, string> = {},
  names: 'label' | 'subdomain' = 'label',
): ObjectMeta {
  return {
    name: names === 'subdomain' ? input.standard.subdomainName : input.standard.name,
    namespace: input.instance.namespace,
    labels: { ...input.standard.labels, ...extraLabels },
    ownerReferences: [{ ...input.standard.ownerReference }],
  };
}
