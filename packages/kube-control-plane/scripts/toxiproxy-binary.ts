// Toxiproxy's server, built once from its Go module at the version src/binaries.ts pins (TOXIPROXY), into
// a cache folder of its own (the fault bench's TCP faults between controllers and the API server).
import { TOXIPROXY, TOXIPROXY_BINARY, toxiproxyCacheFolder } from '../src/binaries.ts';
import { buildProgramIntoCache, log } from './go-modules.ts';

export function ensureToxiproxy(): void {
  const folder = toxiproxyCacheFolder();
  const built = buildProgramIntoCache(
    folder,
    'toxiproxy',
    TOXIPROXY.module,
    TOXIPROXY.version,
    `${TOXIPROXY.module}/cmd/server`,
    `-s -w -X ${TOXIPROXY.module}.Version=${TOXIPROXY.version}`,
    TOXIPROXY_BINARY,
  );
  if (built) log(`toxiproxy ${TOXIPROXY.version} in ${folder}`);
}
