// Packs the binaries `npm run kube-binaries` and `npm run kube-node-binaries` built (or unpacked) in
// the cache into the archives of a prebuilt folder for a team (prebuilt.ts), with their SHA256SUMS;
// Knative Serving's and Traefik's (`npm run knative-binaries`) too when their cache folders are there,
// since one SHA256SUMS covers the whole folder:
//   npm run kube-prebuilt -- <folder>     (e.g. ../shared/prebuilt)
// Refuses a cache folder that is incomplete or was built from other pins than the repository's.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { binariesCacheFolder, cacheRoot } from '../src/binaries.ts';
import { knativeCacheFolder, traefikCacheFolder } from '../src/knative.ts';
import { fail, log } from './go-modules.ts';
import { packPrebuilt, prebuiltArchives, SUMS_FILE } from './prebuilt.ts';

const [out] = process.argv.slice(2);
if (out === undefined) fail('usage: npm run kube-prebuilt -- <folder>   (the folder the archives go to)');
const folder = resolve(out);
const archives = prebuiltArchives();
const specs = [archives.kubernetes, archives.node, archives.helm];
for (const [spec, folder] of [
  [archives.knative, knativeCacheFolder()],
  [archives.traefik, traefikCacheFolder()],
] as const) {
  if (existsSync(folder)) specs.push(spec);
  else log(`leaving out ${spec.what}: ${folder} is not there (npm run knative-binaries)`);
}
try {
  const written = await packPrebuilt(specs, {
    cacheRoot: cacheRoot(process.env),
    out: folder,
  });
  for (const archive of written) log(`wrote ${archive}`);
  log(`wrote ${join(folder, SUMS_FILE)}`);
  // The Go that built them: `kube-recipe-check` compares byte for byte only under the same one.
  const built = spawnSync('go', ['version', join(binariesCacheFolder(), 'etcd')], { encoding: 'utf8' });
  if (built.status === 0) log(`built with ${built.stdout.trim().split(': ').pop()}`);
} catch (error) {
  fail((error as Error).message);
}
