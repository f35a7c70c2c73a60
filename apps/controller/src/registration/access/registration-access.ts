/**
 * The permission check of a registration reconcile: the controller starts only when the API server
 * says it may do everything the registration needs; otherwise the registration says what is missing.
 */
import type { GroupVersionKind } from '@scoby/formfactor';
import { type DynamicClient, errorMessage } from '@scoby/controller-runtime';
import type { ControllerOutcome } from '../../instance/controller-host.ts';
import { registrationAccessNeeds, type ChildResource, type ResourceNeed } from './access-needs.ts';
import { MISSING_PERMISSIONS_REASON, missingAccessMessage, type Denial } from './missing-access.ts';
import type { WriteVerbs } from '../../instance/instance-config.ts';
import { chooseWriteVerbs, writeQuestions } from './write-verbs.ts';

export interface AccessCheck {
  denials(needs: readonly ResourceNeed[]): Promise<Denial[]>;
}

export interface RegistrationAccessSubject {
  instance: { group: string; resource: string; statusSubresource: boolean };
  finalizeHook: boolean;
  workloadKinds: readonly GroupVersionKind[];
  /** Managed kinds of every served form factor. */
  prunableKinds: readonly GroupVersionKind[];
  /** Instance selection reads Namespace labels (docs/spec/registration.md §6.8). */
  readsNamespaces: boolean;
}

async function resources(
  client: DynamicClient,
  kinds: readonly GroupVersionKind[],
): Promise<ChildResource[]> {
  const found: ChildResource[] = [];
  for (const { apiVersion, kind } of kinds) {
    const resource = await client.resourceFor(apiVersion, kind);
    if (resource) found.push({ group: resource.group, resource: resource.resource });
  }
  return found;
}

export type AccessOutcome =
  | { allowed: false; outcome: Extract<ControllerOutcome, { kind: 'failed' }> }
  | { allowed: true; writeVerbs: WriteVerbs };

/** The verbs instance writes use when everything is allowed, or a failed outcome naming what is missing. */
export async function checkRegistrationAccess(
  client: DynamicClient,
  access: AccessCheck,
  subject: RegistrationAccessSubject,
): Promise<AccessOutcome> {
  try {
    const plan = registrationAccessNeeds({
      instance: subject.instance,
      finalizeHook: subject.finalizeHook,
      workloadKinds: await resources(client, subject.workloadKinds),
      otherKinds: await resources(client, subject.prunableKinds),
      readsNamespaces: subject.readsNamespaces,
    });
    const [denials, refusedWrites] = await Promise.all([
      access.denials(plan.needs),
      access.denials(plan.writes.map(writeQuestions)),
    ]);
    const writes = chooseWriteVerbs(plan.writes, refusedWrites);
    const all = [...denials, ...writes.denials];
    if (all.length === 0) return { allowed: true, writeVerbs: writes.verbs };
    return {
      allowed: false,
      outcome: { kind: 'failed', reason: MISSING_PERMISSIONS_REASON, message: missingAccessMessage(all) },
    };
  } catch (error) {
    return {
      allowed: false,
      outcome: {
        kind: 'failed',
        reason: 'CONTROLLERFAILED',
        message: `checking permissions: ${errorMessage(error)}`,
      },
    };
  }
}
