// Builds, once, the programs of the pinned Knative Serving release (knative-release.json) from its Go
// module: controller, webhook, autoscaler, activator and queue (the queue-proxy), one wrapper module
// and one `go build` for all five (they share most of their packages). Cached outside the work tree;
// prints the folder on its last line. Unpacked instead from the team's prebuilt archive when one of the
// repository's pins is there (prebuilt.ts). Checks that the networking and caching modules serving
// resolves are the ones knative-release.json pins: their CRDs and config-network come from those.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KNATIVE_BINARIES,
  KNATIVE_RELEASE as release,
  KNATIVE_RELEASE_FILE,
  knativeCacheFolder,
} from '../src/knative.ts';
import { buildInto, fail, log } from './go-modules.ts';
import { fromPrebuilt, prebuiltArchives } from './prebuilt.ts';

const SERVING = 'knative.dev/serving';
const folder = knativeCacheFolder();
const missing = (dir: string): string[] =>
  [...KNATIVE_BINARIES, KNATIVE_RELEASE_FILE].filter((name) => !existsSync(join(dir, name)));
if (missing(folder).length === 0) {
  log(`Knative Serving ${release.serving} cached in ${folder}`);
  process.stdout.write(`${folder}\n`);
  process.exit(0);
}
if (await fromPrebuilt(prebuiltArchives().knative, log)) {
  process.stdout.write(`${folder}\n`);
  process.exit(0);
}
if (spawnSync('go', ['version']).error)
  fail('Go is not installed (no `go` on PATH); install Go 1.24 or newer');

const started = Date.now();
const work = `${folder}.work`;
const staging = `${folder}.partial`;
mkdirSync(staging, { recursive: true });
buildInto(
  staging,
  work,
  'knative-serving',
  [[SERVING, release.serving]],
  [],
  KNATIVE_BINARIES.map((name) => `${SERVING}/cmd/${name}`),
  '-s -w',
);
for (const [module, pinned] of [
  ['knative.dev/networking', release.networking],
  ['knative.dev/caching', release.caching],
] as const) {
  const resolved = spawnSync('go', ['list', '-m', '-f', '{{.Version}}', module], {
    cwd: join(work, 'knative-serving'),
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  }).stdout?.trim();
  if (resolved !== pinned)
    fail(
      `${SERVING}@${release.serving} resolves ${module} ${resolved || '(nothing)'}, knative-release.json pins ${pinned}`,
    );
}
const left = KNATIVE_BINARIES.filter((name) => !existsSync(join(staging, name)));
if (left.length > 0) fail(`the build left out ${left.join(', ')}`);
writeFileSync(join(staging, KNATIVE_RELEASE_FILE), JSON.stringify(release, null, 2) + '\n');
rmSync(folder, { recursive: true, force: true });
renameSync(staging, folder);
rmSync(work, { recursive: true, force: true });
log(`Knative Serving ${release.serving} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.stdout.write(`${folder}\n`);
