/**
 * The OCI registry the release pushes the controller image to in its rehearsal (CNCF Distribution's
 * `registry`), built from its Go module into a cache folder of its own, like helm and toxiproxy. Its
 * pin is here and not in kube-release.json: the team's prebuilt archives are accepted only when every
 * pin of that file equals theirs, and this binary is in none of them.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from './binaries.ts';

export const OCI_REGISTRY = { module: 'github.com/distribution/distribution/v3', version: 'v3.1.2' } as const;

export const OCI_REGISTRY_BINARY = 'registry';

export function ociRegistryCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'oci-registry', OCI_REGISTRY.version);
}

/** The registry binary, or a message saying how to get it. */
export function locateOciRegistry(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; path: string } | { ok: false; message: string } {
  const path = join(ociRegistryCacheFolder(env), OCI_REGISTRY_BINARY);
  if (existsSync(path)) return { ok: true, path };
  return {
    ok: false,
    message: `the OCI registry is not built (${path} is missing): run \`npm run oci-registry\``,
  };
}
