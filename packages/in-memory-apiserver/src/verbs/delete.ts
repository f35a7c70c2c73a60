import type { KubeObject } from '@scoby/kube-objects';
import { timestamp, type Cluster } from '../cluster.ts';
import { isJsonMap } from '../json.ts';
import { keyOf, kindDotGroup, type ResourceType } from '../resource-type.ts';
import { badRequest, fail, notFound, ok, type Outcome, type Reply } from '../status.ts';
import { released } from './commit.ts';
import { forgetOwnership } from './managed-fields.ts';

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export interface DeleteOptions {
  propagationPolicy: PropagationPolicy;
  preconditions: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}

/** DeleteOptions from the body and query, the query winning like in the real server. */
export function parseDeleteOptions(body: unknown, query: URLSearchParams): Outcome<DeleteOptions> {
  const options = isJsonMap(body) ? body : {};
  const policy =
    query.get('propagationPolicy') ??
    options.propagationPolicy ??
    (options.orphanDependents === true ? 'Orphan' : 'Background');
  if (policy !== 'Background' && policy !== 'Foreground' && policy !== 'Orphan') {
    return badRequest(
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  const preconditions = isJsonMap(options.preconditions) ? options.preconditions : {};
  return ok({
    propagationPolicy: policy,
    preconditions: {
      ...(typeof preconditions.uid === 'string' ? { uid: preconditions.uid } : {}),
      ...(typeof preconditions.resourceVersion === 'string'
        ? { resourceVersion: preconditions.resourceVersion }
        : {}),
    },
    dryRun:
      query.get('dryRun') === 'All' || (Array.isArray(options.dryRun) && options.dryRun.includes('All')),
  });
}

function successStatus(type: ResourceType, object: KubeObject): Reply {
  if (type.returnDeletedObject === true) return { code: 200, body: object };
  return {
    code: 200,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: object.metadata.name,
        ...(type.group === '' ? {} : { group: type.group }),
        kind: type.plural,
        uid: object.metadata.uid,
      },
    },
  };
}

/** kube-apiserver names the kind, not the resource, in a failed delete precondition. */
function preconditionFailed<T>(type: ResourceType, name: string, reason: string): Outcome<T> {
  return fail(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${kindDotGroup(type)} "${name}": ${reason}`,
    {
      name,
      ...(type.group === '' ? {} : { group: type.group }),
      kind: type.kind,
    },
  );
}

function policyFinalizer(policy: PropagationPolicy): string | undefined {
  if (policy === 'Orphan') return ORPHAN_FINALIZER;
  if (policy === 'Foreground') return FOREGROUND_FINALIZER;
  return undefined;
}

/**
 * DELETE: immediate when nothing holds the object (answering a Success Status), otherwise the object gets
 * its deletionTimestamp and stays until its finalizers are removed (answering the object). Orphan and
 * Foreground propagation add the finalizer the garbage collector works off (see controllers/gc.ts).
 */
export function deleteObject(
  cluster: Cluster,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  options: DeleteOptions,
): Outcome<Reply> {
  const key = keyOf(type);
  const current = cluster.store.get(key, namespace, name);
  if (current === undefined) return notFound(type, name);
  const { uid, resourceVersion } = options.preconditions;
  if (uid !== undefined && uid !== current.metadata.uid) {
    return preconditionFailed(
      type,
      name,
      `the UID in the precondition (${uid}) does not match the UID in record (${current.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (resourceVersion !== undefined && resourceVersion !== current.metadata.resourceVersion) {
    return preconditionFailed(
      type,
      name,
      `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${current.metadata.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
  if (current.metadata.deletionTimestamp !== undefined) {
    // Being deleted already: what holds it stays; an object nothing holds (written with a
    // deletionTimestamp by a PUT that created it) is deleted at once.
    if (!released(type, current)) return ok({ code: 200, body: current });
    if (options.dryRun) return ok(successStatus(type, current));
    cluster.store.remove(key, current);
    forgetOwnership(cluster, current.metadata.uid);
    return ok(successStatus(type, current));
  }

  const existing = current.metadata.finalizers ?? [];
  // A type whose garbage collection policy is unsupported (Events) ignores propagationPolicy.
  const extra = type.propagationUnsupported ? undefined : policyFinalizer(options.propagationPolicy);
  const finalizers = extra === undefined || existing.includes(extra) ? existing : [...existing, extra];
  const deleting: KubeObject = {
    ...current,
    metadata: {
      ...current.metadata,
      deletionTimestamp: timestamp(cluster.now()),
      deletionGracePeriodSeconds: 0,
      ...(finalizers.length > 0 ? { finalizers } : {}),
      ...(current.metadata.generation !== undefined ? { generation: current.metadata.generation + 1 } : {}),
    },
    ...(type.group === '' && type.plural === 'namespaces' ? { status: { phase: 'Terminating' } } : {}),
  };
  if (options.dryRun)
    return ok(released(type, deleting) ? successStatus(type, current) : { code: 200, body: deleting });
  if (released(type, deleting)) {
    cluster.store.remove(key, current);
    forgetOwnership(cluster, current.metadata.uid);
    return ok(successStatus(type, current));
  }
  return ok({ code: 200, body: cluster.store.write(key, deleting) });
}
