import {
  HookError,
  type HookRequest,
  type HookResponse,
  type JsonObject,
  type KubeObject,
} from '@scoby/hooks-v1';

// pre-reconcile: request.object is the instance, request.children the children map; {} means "no change".
export function preReconcile(request: HookRequest): HookResponse {
  const status = { ...(request.object.status as JsonObject | undefined) };
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  // Replaces the entry of its type Scoby sent (Unknown at first): a second entry of a type is a warning.
  status.conditions = [
    ...conditions.filter((condition) => (condition as JsonObject).type !== 'QuotaChecked'),
    { type: 'QuotaChecked', status: 'True', reason: 'WithinQuota', message: '' },
  ];
  return { object: { status } };
}

// finalize: returning lets Scoby remove its finalizer; throwing keeps it (permanent: true parks the
// instance until it changes).
export async function finalize(request: HookRequest): Promise<void> {
  const released = await releaseExternalResources(request.object);
  if (!released) throw new HookError('external resources still being released', { status: 409 });
}

// Stands in for your clean-up outside the cluster: here an annotation holds the deletion.
async function releaseExternalResources(instance: KubeObject): Promise<boolean> {
  return instance.metadata.annotations?.['example.com/hold-deletion'] !== 'true';
}
