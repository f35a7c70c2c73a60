// Builds, once, what a Kubernetes node of the pinned release runs besides the control plane: kubelet,
// kube-proxy and kubeadm (its certificate and kubeconfig phases) from the k8s.io/kubernetes module,
// CoreDNS from the Go module proxy with only the plugins a cluster needs (coredns-main.go), and the
// pause program from the release's own source (build/pause/linux/pause.c, static, as its Makefile
// builds it). Cached outside the work tree; prints the folder on its last line. The node image of the
// e2e suite (e2e/images) is made from these and the control plane of kube-binaries.ts. Unpacked instead
// from the team's prebuilt archive when one of the repository's pins is there (prebuilt.ts).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KUBE_RELEASE as release, NODE_BINARIES, nodeBinariesCacheFolder } from '../src/binaries.ts';
import { buildInto, fail, go, kubernetesModule, log, wrapperModule } from './go-modules.ts';
import { fromPrebuilt, prebuiltArchives } from './prebuilt.ts';

const folder = nodeBinariesCacheFolder();
const missing = (dir: string): string[] => NODE_BINARIES.filter((name) => !existsSync(join(dir, name)));
if (missing(folder).length === 0) {
  log(`node binaries cached in ${folder}`);
  process.stdout.write(`${folder}\n`);
  process.exit(0);
}
if (await fromPrebuilt(prebuiltArchives().node, log)) {
  process.stdout.write(`${folder}\n`);
  process.exit(0);
}
for (const tool of ['go', 'gcc']) {
  const probe = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (probe.error && tool === 'gcc')
    fail('gcc is not installed: the pause program is C (apt-get install gcc libc6-dev)');
  if (probe.error) fail('Go is not installed (no `go` on PATH); install Go 1.24 or newer');
}

const started = Date.now();
const work = `${folder}.work`;
const staging = `${folder}.partial`;
mkdirSync(staging, { recursive: true });
mkdirSync(work, { recursive: true });

const kubernetes = kubernetesModule(release.kubernetes);
buildInto(
  staging,
  work,
  'kubernetes-node',
  kubernetes.requires,
  kubernetes.replaces,
  ['k8s.io/kubernetes/cmd/kubelet', 'k8s.io/kubernetes/cmd/kube-proxy', 'k8s.io/kubernetes/cmd/kubeadm'],
  kubernetes.ldflags,
);

if (!existsSync(join(staging, 'coredns'))) {
  const dir = join(work, 'coredns');
  wrapperModule(dir, 'coredns', [['github.com/coredns/coredns', release.coredns]], []);
  copyFileSync(new URL('./coredns-main.go', import.meta.url), join(dir, 'main.go'));
  go(['get', `github.com/coredns/coredns@${release.coredns}`], dir);
  go(['mod', 'tidy'], dir);
  go(
    [
      'build',
      '-trimpath',
      '-ldflags',
      `-s -w -X github.com/coredns/coredns/coremain.GitCommit=${release.coredns}`,
      '-o',
      join(staging, 'coredns'),
      '.',
    ],
    dir,
  );
}

if (!existsSync(join(staging, 'pause'))) {
  const module = spawnSync('go', ['list', '-m', '-f', '{{.Dir}}', 'k8s.io/kubernetes'], {
    cwd: join(work, 'kubernetes-node'),
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  }).stdout?.trim();
  if (!module) fail('cannot find the k8s.io/kubernetes module folder for the pause source');
  const source = join(module, 'build', 'pause', 'linux', 'pause.c');
  log(`gcc ${source}`);
  const gcc = spawnSync(
    'gcc',
    [
      '-Os',
      '-Wall',
      '-Werror',
      '-static',
      `-DVERSION=v${release.pause}`,
      '-o',
      join(staging, 'pause'),
      source,
    ],
    { stdio: 'inherit' },
  );
  if (gcc.status !== 0) fail(`gcc failed (exit ${gcc.status}) on ${source}`);
}

const left = missing(staging);
if (left.length > 0) fail(`the build left out ${left.join(', ')}`);
writeFileSync(join(staging, 'kube-release.json'), JSON.stringify(release, null, 2) + '\n');
rmSync(folder, { recursive: true, force: true });
renameSync(staging, folder);
log(`node binaries built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.stdout.write(`${folder}\n`);
