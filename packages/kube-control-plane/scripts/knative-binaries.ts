// Builds, once, the programs of the pinned Knative Serving release (knative-release.json) from its Go
// module: controller, webhook, autoscaler, activator and queue (the queue-proxy), one wrapper module
// and one `go build` for all five (they share most of their packages); then Traefik, the ingress of
// knative-ingress.json, in a folder of its own. Cached outside the work tree; prints Serving's folder,
// then Traefik's, on its last two lines. Each is unpacked instead from the team's prebuilt archive when
// one of the repository's pins is there (prebuilt.ts). Checks that the networking and caching modules
// serving resolves are the ones knative-release.json pins: their CRDs and config-network come from those.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KNATIVE_BINARIES,
  KNATIVE_INGRESS,
  KNATIVE_RELEASE as release,
  KNATIVE_RELEASE_FILE,
  knativeCacheFolder,
  TRAEFIK_MODULE,
  traefikCacheFolder,
} from '../src/knative.ts';
import { buildInto, fail, go, log } from './go-modules.ts';
import { fromPrebuilt, prebuiltArchives } from './prebuilt.ts';

const SERVING = 'knative.dev/serving';

function requireGo(): void {
  if (spawnSync('go', ['version']).error)
    fail('Go is not installed (no `go` on PATH); install Go 1.24 or newer');
}

async function ensureServing(folder: string): Promise<void> {
  const missing = (dir: string): string[] =>
    [...KNATIVE_BINARIES, KNATIVE_RELEASE_FILE].filter((name) => !existsSync(join(dir, name)));
  if (missing(folder).length === 0) {
    log(`Knative Serving ${release.serving} cached in ${folder}`);
    return;
  }
  if (await fromPrebuilt(prebuiltArchives().knative, log)) return;
  requireGo();

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
}

/**
 * Traefik built inside its own module (the module cache's copy, read only): the replace and exclude
 * directives of its go.mod hold only for the main module, so a wrapper module requiring it would build
 * other dependencies than its release does.
 */
async function ensureTraefik(folder: string): Promise<void> {
  const version = KNATIVE_INGRESS.traefik;
  if (existsSync(join(folder, 'traefik'))) {
    log(`Traefik ${version} cached in ${folder}`);
    return;
  }
  if (await fromPrebuilt(prebuiltArchives().traefik, log)) return;
  requireGo();
  const started = Date.now();
  const download = spawnSync('go', ['mod', 'download', '-json', `${TRAEFIK_MODULE}@${version}`], {
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  });
  if (download.status !== 0)
    fail(`go mod download ${TRAEFIK_MODULE}@${version} failed: ${download.stdout}${download.stderr}`);
  const moduleDir = (JSON.parse(download.stdout) as { Dir: string }).Dir;
  const staging = `${folder}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  go(
    [
      'build',
      '-mod=readonly',
      '-trimpath',
      '-ldflags',
      `-s -w -X ${TRAEFIK_MODULE}/pkg/version.Version=${version}`,
      '-o',
      join(staging, 'traefik'),
      './cmd/traefik',
    ],
    moduleDir,
  );
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  log(`Traefik ${version} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const servingFolder = knativeCacheFolder();
const traefikFolder = traefikCacheFolder();
await ensureServing(servingFolder);
await ensureTraefik(traefikFolder);
process.stdout.write(`${servingFolder}\n${traefikFolder}\n`);
