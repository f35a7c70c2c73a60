// Toxiproxy's server, built once from its Go module at the version kube-release.json pins, into a cache
// folder of its own (the fault bench's TCP faults between controllers and the API server).
import { KUBE_RELEASE as release, TOXIPROXY_BINARY, toxiproxyCacheFolder } from '../src/binaries.ts';
import { buildProgramIntoCache, log } from './go-modules.ts';

const MODULE = 'github.com/Shopify/toxiproxy/v2';

export function ensureToxiproxy(): void {
  const folder = toxiproxyCacheFolder();
  const built = buildProgramIntoCache(
    folder,
    'toxiproxy',
    MODULE,
    release.toxiproxy,
    `${MODULE}/cmd/server`,
    `-s -w -X ${MODULE}.Version=${release.toxiproxy}`,
    TOXIPROXY_BINARY,
  );
  if (built) log(`toxiproxy ${release.toxiproxy} in ${folder}`);
}
