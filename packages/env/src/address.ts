import { isPlainObject } from '@scoby/kube-objects';
import type { Plan } from './plan.ts';
import { valueAt } from './spec-path.ts';
import type { AddressResolution, RenderLookups } from './types.ts';

/** Resolutions of the plan's resolveAddress instructions whose value is an object, by instruction path. */
export type ResolvedAddresses = ReadonlyMap<string, AddressResolution>;

export const NO_ADDRESSES: ResolvedAddresses = new Map();

/**
 * Resolves every destination up front (docs/spec/env.md §6.4), concurrently, so that the rest of rendering stays
 * synchronous. A rejecting resolver counts as a failed resolution.
 */
export async function resolveAddresses(
  plan: Plan,
  spec: Record<string, unknown>,
  namespace: string,
  resolve: RenderLookups['resolveAddress'],
): Promise<ResolvedAddresses> {
  const resolved = new Map<string, AddressResolution>();
  await Promise.all(
    plan.addressInstructions.map(async ({ path, segments }) => {
      const value = valueAt(spec, segments);
      if (!isPlainObject(value)) return;
      resolved.set(path, await resolveSafely(resolve, withNamespace(value, namespace), namespace));
    }),
  );
  return resolved;
}

/** A copy of the destination whose `ref` names the instance's namespace when it names none. */
export function withNamespace(
  destination: Record<string, unknown>,
  namespace: string,
): Record<string, unknown> {
  const ref = destination.ref;
  if (
    !isPlainObject(ref) ||
    (ref.namespace !== undefined && ref.namespace !== null && ref.namespace !== '')
  ) {
    return destination;
  }
  return { ...destination, ref: { ...ref, namespace } };
}

async function resolveSafely(
  resolve: RenderLookups['resolveAddress'],
  destination: Record<string, unknown>,
  namespace: string,
): Promise<AddressResolution> {
  try {
    return await resolve(destination, namespace);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
