/**
 * `scoby crds`: the CRD manifests Scoby needs. A module of its own so that the command line loads the
 * registration package (its schema and YAML) only when this command is chosen.
 */
import { crdManifestYaml } from '@scoby/registration';
import type { CliIo } from './io.ts';

export function runCrds(io: CliIo): number {
  io.stdout(crdManifestYaml());
  return 0;
}
