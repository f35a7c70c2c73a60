/** Validation of the `children` of a pre-reconcile answer (docs/spec/hooks-v1.md §5.3). */
import type { KubeObject } from '@scoby/kube-objects';
import { isJsonObject } from './json.ts';
import type { ManagedKind } from './types.ts';

export interface ChildrenContext {
  /** The children map that was sent. */
  sent: Record<string, KubeObject>;
  managedKinds: ManagedKind[];
  /** The `formFactor` of the request, named in messages. */
  formFactor: string;
  instanceNamespace: string;
}

/** One violation: `path` is `children.<key>`. */
export interface ChildProblem {
  path: string;
  problem: string;
}

/**
 * Every violation, key by key in byte order, so the first one (the one reported) does not depend
 * on the order in which the hook wrote its keys.
 */
export function validateChildren(answer: Record<string, unknown>, context: ChildrenContext): ChildProblem[] {
  const keys = [...new Set([...Object.keys(answer), ...Object.keys(context.sent)])].sort(byteOrder);
  const claimed = new Map<string, string>();
  const problems: ChildProblem[] = [];
  for (const key of keys) {
    const problem = Object.hasOwn(answer, key)
      ? childProblem(answer[key], context.sent[key], context, claimed, key)
      : 'missing';
    if (problem !== undefined) problems.push({ path: `children.${key}`, problem });
  }
  return problems;
}

function childProblem(
  child: unknown,
  sent: KubeObject | undefined,
  context: ChildrenContext,
  claimed: Map<string, string>,
  key: string,
): string | undefined {
  if (!isJsonObject(child)) return 'is not a JSON object';
  const { apiVersion, kind, metadata } = child;
  if (!isNonEmptyString(apiVersion)) return 'apiVersion must be a non-empty string';
  if (!isNonEmptyString(kind)) return 'kind must be a non-empty string';
  if (!isJsonObject(metadata)) return 'metadata is not a JSON object';
  const { name, namespace } = metadata;
  if (!isNonEmptyString(name)) return 'metadata.name must be a non-empty string';
  if (namespace !== undefined && namespace !== context.instanceNamespace) {
    return `metadata.namespace ${JSON.stringify(namespace)} is not the instance's namespace ${JSON.stringify(context.instanceNamespace)}`;
  }
  if (!context.managedKinds.some((managed) => managed.apiVersion === apiVersion && managed.kind === kind)) {
    return `${describeKind(kind, apiVersion)} is not managed by form factor ${JSON.stringify(context.formFactor)}`;
  }
  if (sent !== undefined && (sent.apiVersion !== apiVersion || sent.kind !== kind)) {
    return `${describeKind(kind, apiVersion)} differs from the ${describeKind(sent.kind, sent.apiVersion)} that was sent`;
  }
  const identity = JSON.stringify([kind, name]);
  const owner = claimed.get(identity);
  if (owner !== undefined)
    return `kind ${JSON.stringify(kind)} and name ${JSON.stringify(name)} are already used by children.${owner}`;
  claimed.set(identity, key);
  return undefined;
}

function describeKind(kind: string, apiVersion: string): string {
  return `kind ${JSON.stringify(kind)} (${apiVersion})`;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
