/**
 * Where the binaries of the pinned Kubernetes release (kube-release.json) live: a cache folder outside
 * the work tree, filled once by `npm run kube-binaries`, or KUBEBUILDER_ASSETS when it holds them all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface KubeRelease {
  kubernetes: string;
  etcd: string;
  kwok: string;
  helm: string;
  coredns: string;
  pause: string;
}

export const KUBE_RELEASE: KubeRelease = JSON.parse(
  readFileSync(new URL('../kube-release.json', import.meta.url), 'utf8'),
) as KubeRelease;

/** The pins of a release file (kube-release.json, knative-release.json): every field but its comment,
 *  in key order. */
export function pinsOf(release: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(release)
      .filter(([key]) => key !== '$comment')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export const KUBE_BINARIES = [
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kwok',
  // The client of the same release, for tests that drive a server with kubectl's default flags.
  'kubectl',
] as const;

export type KubeBinary = (typeof KUBE_BINARIES)[number];

/** kwok's default node and pod Stages (initialize, heartbeat, ready, complete, delete), copied from the
 *  pinned kwok module at build time: the standalone kwok binary has no stages of its own. */
export const KWOK_STAGES_FILE = 'kwok-stages.yaml';

const REQUIRED_FILES = [...KUBE_BINARIES, KWOK_STAGES_FILE];

/** $SCOBY_CACHE_DIR, else $XDG_CACHE_HOME/scoby, else ~/.cache/scoby. */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  return env.SCOBY_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'scoby');
}

/** One folder per release under the cache root. */
export function binariesCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const release = KUBE_RELEASE;
  return join(
    cacheRoot(env),
    'kube',
    `kubernetes-${release.kubernetes}-etcd-${release.etcd}-kwok-${release.kwok}`,
  );
}

/** The node's binaries (kubelet, kube-proxy, kubeadm, CoreDNS, pause): only the node image needs them. */
export function nodeBinariesCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  const release = KUBE_RELEASE;
  return join(
    cacheRoot(env),
    'kube',
    `node-${release.kubernetes}-coredns-${release.coredns}-pause-${release.pause}`,
  );
}

export const NODE_BINARIES = ['kubelet', 'kube-proxy', 'kubeadm', 'coredns', 'pause'] as const;

/** Helm lives in a folder of its own: a new Helm release does not rebuild Kubernetes. */
export function helmCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'helm', KUBE_RELEASE.helm);
}

/**
 * Toxiproxy's server (the fault bench's TCP faults), built by `npm run kube-binaries` into a folder of
 * its own like helm. Its pin is here and not in kube-release.json: the team's prebuilt archives are
 * accepted only when every pin of that file equals theirs, and this binary is in none of them, so a
 * pin there made every archive refused and a fresh machine compile Kubernetes for 30–45 minutes.
 */
export const TOXIPROXY = { module: 'github.com/Shopify/toxiproxy/v2', version: 'v2.5.0' } as const;

export function toxiproxyCacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'toxiproxy', TOXIPROXY.version);
}

export const TOXIPROXY_BINARY = 'toxiproxy-server';

/** The toxiproxy-server binary, or a message saying how to get it. */
export function locateToxiproxy(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; path: string } | { ok: false; message: string } {
  const path = join(toxiproxyCacheFolder(env), TOXIPROXY_BINARY);
  if (existsSync(path)) return { ok: true, path };
  return { ok: false, message: `toxiproxy is not built (${path} is missing): run \`npm run kube-binaries\`` };
}

/** The helm binary, or a message saying how to get it. */
export function locateHelm(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; path: string } | { ok: false; message: string } {
  const path = join(helmCacheFolder(env), 'helm');
  if (existsSync(path)) return { ok: true, path };
  return { ok: false, message: `helm is not built (${path} is missing): run \`npm run kube-binaries\`` };
}

export function missingBinaries(folder: string): string[] {
  return REQUIRED_FILES.filter((name) => !existsSync(join(folder, name)));
}

/** The folder to run binaries from, or a message saying how to get them. */
export function locateBinaries(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; folder: string } | { ok: false; message: string } {
  const assets = env.KUBEBUILDER_ASSETS;
  if (assets && missingBinaries(assets).length === 0) return { ok: true, folder: assets };
  const folder = binariesCacheFolder(env);
  const missing = missingBinaries(folder);
  if (missing.length === 0) return { ok: true, folder };
  return {
    ok: false,
    message:
      `the Kubernetes binaries of release ${KUBE_RELEASE.kubernetes} are not found (${folder} lacks ${missing.join(', ')}): ` +
      `set KUBEBUILDER_ASSETS to a folder holding ${REQUIRED_FILES.join(', ')}, ` +
      'or build them into that folder from a clone of the Scoby repository with `npm run kube-binaries`',
  };
}
