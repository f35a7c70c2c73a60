import type { FormFactorPlugin } from './contract.ts';

/**
 * The CONTROLLERFAILED message (docs/spec/registration.md §4) for the first required API the cluster does not
 * serve, or undefined when all are served.
 */
export function unservedApiMessage(
  plugin: FormFactorPlugin,
  servedGroupVersions: ReadonlySet<string>,
): string | undefined {
  const missing = plugin.requiredApis.find((groupVersion) => !servedGroupVersions.has(groupVersion));
  return missing === undefined
    ? undefined
    : `form factor "${plugin.name}" needs API ${missing}, which the cluster does not serve`;
}
