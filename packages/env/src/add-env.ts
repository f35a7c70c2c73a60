import type { EnvVar } from '@scoby/kube-objects';
import type { NormalizedAddToEnv } from '@scoby/registration';
import { TIER_ADD } from './collisions.ts';
import type { RenderOutput } from './output.ts';
import { selector } from './selector.ts';
import type { RenderLookups } from './types.ts';

/** add.toEnv (docs/spec/env.md §6.6), in list order so that errors come out in the §9 order. */
export function renderAddedEnv(
  items: readonly NormalizedAddToEnv[],
  lookups: Pick<RenderLookups, 'controllerConfigMap' | 'controllerNamespace'>,
  out: RenderOutput,
): void {
  items.forEach((item, index) => {
    const env = addedEnv(item, lookups, out);
    if (env !== undefined)
      out.candidates.push({ env, tier: TIER_ADD, source: 'add.toEnv', rank: index, literal: undefined });
  });
}

function addedEnv(
  item: NormalizedAddToEnv,
  lookups: Pick<RenderLookups, 'controllerConfigMap' | 'controllerNamespace'>,
  out: RenderOutput,
): EnvVar | undefined {
  const { name, value, valueFrom, valueFromControllerConfigMap } = item;
  if (value !== undefined) return { name, value };
  if (valueFrom?.field !== undefined) {
    const { fieldPath, apiVersion } = valueFrom.field;
    return {
      name,
      valueFrom: { fieldRef: apiVersion === undefined ? { fieldPath } : { fieldPath, apiVersion } },
    };
  }
  if (valueFrom?.configMap !== undefined)
    return { name, valueFrom: { configMapKeyRef: selector(valueFrom.configMap) } };
  if (valueFrom?.secret !== undefined)
    return { name, valueFrom: { secretKeyRef: selector(valueFrom.secret) } };
  if (valueFromControllerConfigMap === undefined) return undefined;

  const { name: configMapName, key, optional } = valueFromControllerConfigMap;
  const data = lookups.controllerConfigMap(configMapName);
  const configMap = `ConfigMap "${lookups.controllerNamespace}/${configMapName}"`;
  if (data !== undefined && Object.hasOwn(data, key)) return { name, value: data[key] as string };
  if (optional !== true) {
    // The ConfigMap may be created or given the key without any change to the instance.
    out.clusterErrors++;
    out.errors.push(
      `add.toEnv "${name}": ${configMap} ${data === undefined ? 'not found' : `has no key "${key}"`}`,
    );
  }
  return undefined;
}
