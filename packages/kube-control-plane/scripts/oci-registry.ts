// Builds, once, CNCF Distribution's registry (cmd/registry) from its Go module at the version
// src/oci-registry.ts pins, into a cache folder of its own as toxiproxy is built (go-modules.ts), with
// the version stamped as its Makefile stamps it. Prints the binary's path on its last line.
import { join } from 'node:path';
import { OCI_REGISTRY, OCI_REGISTRY_BINARY, ociRegistryCacheFolder } from '../src/oci-registry.ts';
import { buildProgramIntoCache, log } from './go-modules.ts';

const { module, version } = OCI_REGISTRY;
const folder = ociRegistryCacheFolder();
const started = Date.now();
const built = buildProgramIntoCache(
  folder,
  'oci-registry',
  module,
  version,
  `${module}/cmd/registry`,
  `-s -w -X ${module}/version.version=${version} -X ${module}/version.mainpkg=${module}`,
  OCI_REGISTRY_BINARY,
);
log(
  built
    ? `OCI registry ${version} built in ${Math.round((Date.now() - started) / 1000)} s into ${folder}`
    : `OCI registry ${version} cached in ${folder}`,
);
process.stdout.write(`${join(folder, OCI_REGISTRY_BINARY)}\n`);
