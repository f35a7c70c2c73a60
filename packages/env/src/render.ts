import { renderAddedEnv } from './add-env.ts';
import { NO_ADDRESSES, resolveAddresses, type ResolvedAddresses } from './address.ts';
import { compareByteOrder, isPlainObject, jsonTypeName } from '@scoby/kube-objects';
import { renderDefaults } from './default-rendering.ts';
import { settleEnv } from './collisions.ts';
import { orderForExpansion } from './expansion-order.ts';
import { withLazySourceMap } from './source-map.ts';
import type { RenderOutput } from './output.ts';
import { renderInstructions } from './from-spec.ts';
import { planFor, type Plan } from './plan.ts';
import { readLiteral } from './references.ts';
import type { RenderInput, RenderLookups, RenderResult } from './types.ts';
import { buildVolume } from './volumes.ts';

/**
 * Renders an instance's environment and volumes (env.md). Never rejects: a failure of any kind is an
 * entry in `errors`. Only resolveAddress instructions await anything; everything else is synchronous.
 */
export async function renderEnv(input: RenderInput, lookups: RenderLookups): Promise<RenderResult> {
  try {
    const plan = planFor(input.config);
    const spec = readSpec(input.instance.spec);
    const addresses =
      plan.addressInstructions.length === 0
        ? NO_ADDRESSES
        : await resolveAddresses(
            plan,
            spec.value,
            input.instance.metadata.namespace ?? '',
            lookups.resolveAddress,
          );
    return renderResolved(plan, spec, addresses, lookups);
  } catch (error) {
    return {
      env: [],
      volumes: [],
      volumeMounts: [],
      sourceMap: {},
      warnings: [],
      errors: [`internal error while rendering: ${error instanceof Error ? error.message : String(error)}`],
      needsSpecChange: false,
    };
  }
}

interface Spec {
  value: Record<string, unknown>;
  error?: string;
}

/** A missing or null spec renders as `{}`; any other non-object is a render error (docs/spec/env.md §1). */
function readSpec(raw: unknown): Spec {
  if (isPlainObject(raw)) return { value: raw };
  if (raw === undefined || raw === null) return { value: {} };
  return { value: {}, error: `spec: expected an object, got ${jsonTypeName(raw)}` };
}

/**
 * Everything after address resolution, in the §9 order: add.toEnv, spec, then paths in byte order;
 * env in the §8 order.
 */
function renderResolved(
  plan: Plan,
  spec: Spec,
  addresses: ResolvedAddresses,
  lookups: RenderLookups,
): RenderResult {
  const out: RenderOutput = {
    candidates: [],
    volumes: [],
    volumeMounts: [],
    errors: [...plan.problems],
    clusterErrors: 0,
  };
  renderAddedEnv(plan.config.add.toEnv, lookups, out);
  if (spec.error !== undefined) out.errors.push(spec.error);
  renderDefaults(spec.value, plan.coverage, plan.prefix, out);
  for (const { name, mountPath, mountFrom } of plan.config.add.toVolume) {
    const volume = buildVolume(name, mountFrom, readLiteral);
    if (volume !== undefined) out.volumes.push(volume);
    out.volumeMounts.push({ name, mountPath });
  }
  renderInstructions(plan, spec.value, addresses, out);

  const { env, warnings } = settleEnv(out.candidates);
  const byName = (a: { name: string }, b: { name: string }): number => compareByteOrder(a.name, b.name);
  const result = {
    env: orderForExpansion(env),
    volumes: out.volumes.sort(byName),
    volumeMounts: out.volumeMounts.sort(byName),
    sourceMap: {},
    warnings,
    errors: out.errors,
    needsSpecChange: out.errors.length > 0 && out.clusterErrors === 0,
  };
  return withLazySourceMap(result, out.candidates);
}
