// The Go side of the binary builds: a wrapper module per program pins what it builds, `go build` writes
// into a staging folder; shared by kube-binaries.ts (control plane) and kube-node-binaries.ts (node).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KUBE_RELEASE } from '../src/binaries.ts';

/** Staging modules of k8s.io/kubernetes: its go.mod replaces them with ./staging paths, which a
 *  dependent module cannot see, so the wrapper module pins each to its published v0.x twin. */
export const STAGING = [
  'api',
  'apiextensions-apiserver',
  'apimachinery',
  'apiserver',
  'cli-runtime',
  'client-go',
  'cloud-provider',
  'cluster-bootstrap',
  'code-generator',
  'component-base',
  'component-helpers',
  'controller-manager',
  'cri-api',
  'cri-client',
  'csi-translation-lib',
  'dynamic-resource-allocation',
  'endpointslice',
  'externaljwt',
  'kms',
  'kube-aggregator',
  'kube-controller-manager',
  'kube-proxy',
  'kube-scheduler',
  'kubectl',
  'kubelet',
  'metrics',
  'mount-utils',
  'pod-security-admission',
  'sample-apiserver',
  'sample-cli-plugin',
  'sample-controller',
];

export function fail(line: string): never {
  process.stderr.write(`kube-binaries: ${line}\n`);
  process.exit(1);
}

export function log(line: string): void {
  process.stderr.write(`kube-binaries: ${line}\n`);
}

export function go(args: string[], cwd: string): void {
  const started = Date.now();
  log(`go ${args.join(' ')}  (in ${cwd})`);
  const result = spawnSync('go', args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    // The caller's GOFLAGS stay (`-p=1` keeps a shared machine usable while a build runs).
    env: {
      ...process.env,
      GOTOOLCHAIN: 'local',
      GOFLAGS: [process.env.GOFLAGS, '-buildvcs=false'].filter(Boolean).join(' '),
      CGO_ENABLED: '0',
    },
  });
  if (result.error) fail(`cannot run go: ${result.error.message}`);
  if (result.status !== 0) fail(`go ${args[0]} failed (exit ${result.status}) in ${cwd}`);
  log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function wrapperModule(
  dir: string,
  name: string,
  requires: [string, string][],
  replaces: [string, string][],
): void {
  mkdirSync(dir, { recursive: true });
  const lines = [`module scoby.local/${name}`, '', 'go 1.24.0', ''];
  for (const [path, version] of requires) lines.push(`require ${path} ${version}`);
  if (replaces.length > 0) {
    lines.push('', 'replace (');
    for (const [from, to] of replaces) lines.push(`\t${from} => ${to}`);
    lines.push(')');
  }
  writeFileSync(join(dir, 'go.mod'), lines.join('\n') + '\n');
}

/** `packages` resolve at `version`: a bare `go get` would move to the newest release. */
export function buildInto(
  outDir: string,
  work: string,
  name: string,
  requires: [string, string][],
  replaces: [string, string][],
  packages: string[],
  ldflags: string,
  output?: string,
): void {
  const outputs =
    output === undefined ? packages.map((pkg) => pkg.slice(pkg.lastIndexOf('/') + 1)) : [output];
  // A run that was interrupted resumes: what an earlier run finished is kept.
  if (outputs.every((file) => existsSync(join(outDir, file)))) return;
  const dir = join(work, name);
  wrapperModule(dir, name, requires, replaces);
  go(['get', ...packages.map((pkg) => `${pkg}@${requires[0]![1]}`)], dir);
  // One package: named by `output` (go would name etcd's main package after its folder, "server").
  const target = output === undefined ? outDir + '/' : join(outDir, output);
  go(['build', '-trimpath', '-ldflags', ldflags, '-o', target, ...packages], dir);
}

/**
 * One program of one Go module, built once into a cache folder of its own (`<folder>/<binary>`), which
 * appears whole or not at all: built in `<folder>.partial`, renamed, the module's work folder removed.
 * Answers whether it was built now (false: it was cached).
 */
export function buildProgramIntoCache(
  folder: string,
  name: string,
  module: string,
  version: string,
  program: string,
  ldflags: string,
  binary: string,
): boolean {
  if (existsSync(join(folder, binary))) return false;
  const staging = `${folder}.partial`;
  mkdirSync(staging, { recursive: true });
  buildInto(staging, `${folder}.work`, name, [[module, version]], [], [program], ldflags, binary);
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  rmSync(`${folder}.work`, { recursive: true, force: true });
  return true;
}

/** etcd of the pinned release, as kube-binaries.ts builds it and kube-recipe-check.ts builds it again. */
export function buildEtcd(outDir: string, work: string, version: string = KUBE_RELEASE.etcd): void {
  buildInto(
    outDir,
    work,
    'etcd',
    [['go.etcd.io/etcd/server/v3', version]],
    [],
    ['go.etcd.io/etcd/server/v3'],
    '-s -w',
    'etcd',
  );
}

/** What every build of a k8s.io/kubernetes command needs: the module at the release, its staging
 *  modules at their published twins, and the version stamped as the release's own build would. */
export function kubernetesModule(k8s: string): {
  requires: [string, string][];
  replaces: [string, string][];
  ldflags: string;
} {
  const [, minor] = k8s.slice(1).split('.');
  const stagingVersion = `v0.${k8s.slice(1).split('.').slice(1).join('.')}`;
  const versionFlags = [
    `-X k8s.io/component-base/version.gitVersion=${k8s}`,
    `-X k8s.io/component-base/version.gitMajor=1`,
    `-X k8s.io/component-base/version.gitMinor=${minor}`,
    `-X k8s.io/component-base/version.gitTreeState=clean`,
    `-X k8s.io/component-base/version.buildDate=1970-01-01T00:00:00Z`,
    `-X k8s.io/client-go/pkg/version.gitVersion=${k8s}`,
    `-X k8s.io/client-go/pkg/version.gitMajor=1`,
    `-X k8s.io/client-go/pkg/version.gitMinor=${minor}`,
  ].join(' ');
  return {
    requires: [['k8s.io/kubernetes', k8s]],
    replaces: STAGING.map((m): [string, string] => [`k8s.io/${m}`, `k8s.io/${m} ${stagingVersion}`]),
    ldflags: `-s -w ${versionFlags}`,
  };
}
