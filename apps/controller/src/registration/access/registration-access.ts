/**
 * The permission check of a registration reconcile: the controller starts only when the API server
 * says it may do everything the registration needs; otherwise the registration says what is missing.
 */
import type { GroupVersionKind } from '@scoby/formfactor';
import { type DynamicClient, errorMessage } from '@scoby/controller-runtime';
import type { ControllerOutcome } from '../conditions.ts';
import { registrationAccessNeeds, type ChildResource, type ResourceNeed } from './access-needs.ts';
import { MISSING_PERMISSIONS_REASON, missingAccessMessage, type Denial } from './missing-access.ts';

export interface AccessCheck {
  denials(needs: readonly ResourceNeed[]): Promise<Denial[]>;
}

export interface RegistrationAccessSubject {
  instance: { group: string; resource: string; statusSubresource: boolean };
  workloadKinds: readonly GroupVersionKind[];
  /** Managed kinds of every served form factor. */
  prunableKinds: readonly GroupVersionKind[];
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

/** A failed outcome naming what is missing; undefined when everything is allowed. */
export async function checkRegistrationAccess(
  client: DynamicClient,
  access: AccessCheck,
  subject: RegistrationAccessSubject,
): Promise<Extract<ControllerOutcome, { kind: 'failed' }> | undefined> {
  try {
    const needs = registrationAccessNeeds({
      instance: subject.instance,
      workloadKinds: await resources(client, subject.workloadKinds),
      otherKinds: await resources(client, subject.prunableKinds),
    });
    const denials = await access.denials(needs);
    if (denials.length === 0) return undefined;
    return { kind: 'failed', reason: MISSING_PERMISSIONS_REASON, message: missingAccessMessage(denials) };
  } catch (error) {
    return {
      kind: 'failed',
      reason: 'CONTROLLERFAILED',
      message: `checking permissions: ${errorMessage(error)}`,
    };
  }
}
