// Toxiproxy's server, built once from its Go module at the version kube-release.json pins, into a cache
// folder of its own (the fault bench's TCP faults between controllers and the API server).
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { KUBE_RELEASE as release, TOXIPROXY_BINARY, toxiproxyCacheFolder } from '../src/binaries.ts';
import { buildInto, log } from './go-modules.ts';

const MODULE = 'github.com/Shopify/toxiproxy/v2';

export function ensureToxiproxy(): void {
  const folder = toxiproxyCacheFolder();
  if (existsSync(join(folder, TOXIPROXY_BINARY))) return;
  const staging = `${folder}.partial`;
  mkdirSync(staging, { recursive: true });
  buildInto(
    staging,
    `${folder}.work`,
    'toxiproxy',
    [[MODULE, release.toxiproxy]],
    [],
    [`${MODULE}/cmd/server`],
    `-s -w -X ${MODULE}.Version=${release.toxiproxy}`,
    TOXIPROXY_BINARY,
  );
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  rmSync(`${folder}.work`, { recursive: true, force: true });
  log(`toxiproxy ${release.toxiproxy} in ${folder}`);
}
