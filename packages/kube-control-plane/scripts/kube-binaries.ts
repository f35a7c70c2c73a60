// Builds, once, the binaries of the pinned Kubernetes release (kube-release.json) from the Go
// module proxy into a cache folder outside the work tree, and prints that folder on its last line;
// helm (the chart tests) is built beside it, into a folder of its own. Each is unpacked instead from
// the team's prebuilt archive when one of the repository's pins is there (prebuilt.ts).
// Honours KUBEBUILDER_ASSETS (controller-runtime's envtest convention) when it holds every binary.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  binariesCacheFolder,
  helmCacheFolder,
  KUBE_BINARIES,
  KUBE_RELEASE as release,
  KWOK_STAGES_FILE,
  missingBinaries,
} from '../src/binaries.ts';
import { buildEtcd, buildInto, fail, kubernetesModule, log } from './go-modules.ts';
import { fromPrebuilt, prebuiltArchives } from './prebuilt.ts';
import { ensureToxiproxy } from './toxiproxy-binary.ts';

/** kwok's own default Stages, as kwokctl installs them (paths inside the sigs.k8s.io/kwok module). */
const KWOK_STAGES = [
  'kustomize/stage/node/fast/node-initialize.yaml',
  'kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml',
  'kustomize/stage/pod/fast/pod-ready.yaml',
  'kustomize/stage/pod/fast/pod-complete.yaml',
  'kustomize/stage/pod/fast/pod-delete.yaml',
];

/** Helm, for the chart tests of deploy/helm, into its own folder (kube-release.json pins it too). */
async function ensureHelm(): Promise<void> {
  const folder = helmCacheFolder();
  if (existsSync(join(folder, 'helm'))) {
    log(`helm ${release.helm} cached in ${folder}`);
    return;
  }
  if (await fromPrebuilt(prebuiltArchives().helm, log)) return;
  const staging = `${folder}.partial`;
  mkdirSync(staging, { recursive: true });
  const module = `helm.sh/helm/${release.helm.split('.')[0]}`;
  buildInto(
    staging,
    `${folder}.work`,
    'helm',
    [[module, release.helm]],
    [],
    [`${module}/cmd/helm`],
    `-s -w -X ${module}/internal/version.version=${release.helm}`,
  );
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  log(`helm ${release.helm} in ${folder}`);
}

await ensureHelm();
ensureToxiproxy();

const assets = process.env.KUBEBUILDER_ASSETS;
if (assets && missingBinaries(assets).length === 0) {
  log(`using KUBEBUILDER_ASSETS`);
  process.stdout.write(`${assets}\n`);
  process.exit(0);
}
if (assets) log(`KUBEBUILDER_ASSETS=${assets} lacks ${missingBinaries(assets).join(', ')}; building instead`);

const folder = binariesCacheFolder();
if (missingBinaries(folder).length === 0) {
  log(`cached in ${folder}`);
  process.stdout.write(`${folder}\n`);
  process.exit(0);
}
if (await fromPrebuilt(prebuiltArchives().kubernetes, log)) {
  process.stdout.write(`${folder}\n`);
  process.exit(0);
}

const probe = spawnSync('go', ['version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  fail(
    'Go is not installed (no `go` on PATH); install Go 1.24 or newer, or set KUBEBUILDER_ASSETS to a folder holding ' +
      KUBE_BINARIES.join(', '),
  );
}

const started = Date.now();
const work = `${folder}.work`;
const staging = `${folder}.partial`;
mkdirSync(staging, { recursive: true });
mkdirSync(work, { recursive: true });
// A cache of an older pinned set lacking a newer binary (kubectl) keeps what it has: only the rest is built.
for (const file of [...KUBE_BINARIES, KWOK_STAGES_FILE]) {
  if (existsSync(join(folder, file)) && !existsSync(join(staging, file))) {
    copyFileSync(join(folder, file), join(staging, file));
  }
}

const kubernetes = kubernetesModule(release.kubernetes);
buildInto(
  staging,
  work,
  'kubernetes',
  kubernetes.requires,
  kubernetes.replaces,
  [
    'k8s.io/kubernetes/cmd/kube-apiserver',
    'k8s.io/kubernetes/cmd/kube-controller-manager',
    'k8s.io/kubernetes/cmd/kube-scheduler',
  ],
  kubernetes.ldflags,
);
// A module of its own, so a cache that has the server binaries builds kubectl alone.
buildInto(
  staging,
  work,
  'kubectl',
  kubernetes.requires,
  kubernetes.replaces,
  ['k8s.io/kubernetes/cmd/kubectl'],
  kubernetes.ldflags,
);
buildEtcd(staging, work);
buildInto(
  staging,
  work,
  'kwok',
  [['sigs.k8s.io/kwok', release.kwok]],
  [],
  ['sigs.k8s.io/kwok/cmd/kwok'],
  `-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${release.kwok}`,
  'kwok',
);
// Kept from the cache folder when it had them (kwok then was not built: no module to read them from).
if (!existsSync(join(staging, KWOK_STAGES_FILE))) {
  const kwokModule = spawnSync('go', ['list', '-m', '-f', '{{.Dir}}', 'sigs.k8s.io/kwok'], {
    cwd: join(work, 'kwok'),
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  }).stdout?.trim();
  if (!kwokModule) fail('cannot find the sigs.k8s.io/kwok module folder for its Stages');
  writeFileSync(
    join(staging, KWOK_STAGES_FILE),
    KWOK_STAGES.map((path) => readFileSync(join(kwokModule, path), 'utf8').trim()).join('\n---\n') + '\n',
  );
}

const missing = missingBinaries(staging);
if (missing.length > 0) fail(`the build left out ${missing.join(', ')}`);
writeFileSync(join(staging, 'kube-release.json'), JSON.stringify(release, null, 2) + '\n');
rmSync(folder, { recursive: true, force: true });
renameSync(staging, folder);
log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.stdout.write(`${folder}\n`);
