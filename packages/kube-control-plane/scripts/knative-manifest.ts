// Writes one installation manifest of the pinned Knative Serving release (knative-release.json) from
// the YAML of its Go modules in the module cache (`go mod download`, which fetches them when missing):
// serving's config/core, networking's CRDs and config-network, caching's Image CRD, edited for this
// repository's cluster (src/knative-manifest.ts). Nothing of it is committed: third-party YAML stays in
// the module cache. Prints the manifest's path on its last line:
//   npm run knative-manifest
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import {
  KNATIVE_BINARIES,
  KNATIVE_RELEASE as release,
  knativeCacheFolder,
  knativeImage,
  LOCAL_IMAGE_HOST,
} from '../src/knative.ts';
import {
  editKnativeObjects,
  knativeObjects,
  TEST_PROGRESS_DEADLINE,
  TRAEFIK_INGRESS_CLASS,
  type ModuleFile,
} from '../src/knative-manifest.ts';
import { fail, log } from './go-modules.ts';

function moduleFiles(module: string, version: string): ModuleFile[] {
  const download = spawnSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  });
  if (download.error) fail('Go is not installed (no `go` on PATH); install Go 1.24 or newer');
  if (download.status !== 0)
    fail(`go mod download ${module}@${version} failed: ${download.stdout}${download.stderr}`);
  const dir = (JSON.parse(download.stdout) as { Dir: string }).Dir;
  const config = join(dir, 'config');
  return readdirSync(config, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ path: relative(dir, path), text: readFileSync(path, 'utf8') }));
}

const objects = editKnativeObjects(
  knativeObjects({
    serving: moduleFiles('knative.dev/serving', release.serving),
    networking: moduleFiles('knative.dev/networking', release.networking),
    caching: moduleFiles('knative.dev/caching', release.caching),
  }),
  {
    images: Object.fromEntries(KNATIVE_BINARIES.map((program) => [program, knativeImage(program)])) as Record<
      (typeof KNATIVE_BINARIES)[number],
      string
    >,
    localImageHost: LOCAL_IMAGE_HOST,
    ingressClass: TRAEFIK_INGRESS_CLASS,
    progressDeadline: TEST_PROGRESS_DEADLINE,
  },
);
const path = `${knativeCacheFolder()}.yaml`;
mkdirSync(join(path, '..'), { recursive: true });
writeFileSync(path, objects.map((object) => stringify(object, { lineWidth: 0 })).join('---\n'));
log(`Knative Serving ${release.serving}: ${objects.length} objects written to ${path}`);
process.stdout.write(`${path}\n`);
