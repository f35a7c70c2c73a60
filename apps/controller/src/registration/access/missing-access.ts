/**
 * The registration condition for permissions the controller lacks: which verb on which resource, and
 * the ClusterRole rules that grant them, ready to paste.
 */
import type { Grantor, ResourceNeed } from './access-needs.ts';

export const MISSING_PERMISSIONS_REASON = 'MissingPermissions';

/** One verb the API server refused; `namespace: ''` asked about all namespaces. */
export interface Denial {
  need: ResourceNeed;
  verb: string;
  namespace: string;
}

function qualifiedResource(need: ResourceNeed): string {
  const resource = need.group === '' ? need.resource : `${need.resource}.${need.group}`;
  return need.subresource ? `${resource}/${need.subresource}` : resource;
}

function rule(need: ResourceNeed): string {
  const resource = need.subresource ? `${need.resource}/${need.subresource}` : need.resource;
  return `{apiGroups: ["${need.group}"], resources: [${resource}], verbs: [${need.verbs.join(', ')}]}`;
}

/** One rule per resource: the verbs of needs naming the same one (reads, and a write verb) together. */
function mergedRules(needs: readonly ResourceNeed[]): string[] {
  const byResource = new Map<string, ResourceNeed>();
  for (const need of needs) {
    const key = `${need.group}/${need.resource}/${need.subresource ?? ''}`;
    const known = byResource.get(key);
    byResource.set(
      key,
      known === undefined ? need : { ...known, verbs: [...new Set([...known.verbs, ...need.verbs])] },
    );
  }
  return [...byResource.values()].map(rule);
}

const ROLE: Record<Grantor, string> = {
  registered: 'a ClusterRole labelled scoby.triggermesh.io/crdregistration: "true"',
  'scoby-controller': 'the ClusterRole scoby-controller (deploy/10-rbac.yaml)',
};

/** The published guide: a status is read far from any clone of the repository. */
export const MIGRATION_GUIDE = 'https://github.com/scoby-ts/scoby/blob/main/docs/migration.md';

export function missingAccessMessage(denials: readonly Denial[]): string {
  const refused = denials.map(
    ({ need, verb, namespace }) =>
      `${verb} ${qualifiedResource(need)} ${namespace === '' ? '(all namespaces)' : `in namespace ${namespace}`}`,
  );
  const needs = [...new Set(denials.map((denial) => denial.need))];
  const grants = (['registered', 'scoby-controller'] as const)
    .map((grantor) => {
      const rules = mergedRules(needs.filter((need) => need.grantor === grantor));
      return rules.length === 0 ? undefined : `add to ${ROLE[grantor]} the rules ${rules.join(', ')}`;
    })
    .filter((grant) => grant !== undefined);
  return `the controller may not ${refused.join(', ')}; ${grants.join('; ')} (see ${MIGRATION_GUIDE})`;
}
