import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  binariesCacheFolder,
  helmCacheFolder,
  KUBE_BINARIES,
  KUBE_RELEASE,
  locateBinaries,
  locateHelm,
  locateToxiproxy,
  nodeBinariesCacheFolder,
  pinsOf,
  TOXIPROXY,
  toxiproxyCacheFolder,
} from '../../src/binaries.ts';

async function folderWith(names: readonly string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'assets-'));
  for (const name of names) await writeFile(join(dir, name), '');
  return dir;
}

describe('the binaries folder', () => {
  it('is one folder per pinned release under the cache root', () => {
    expect(binariesCacheFolder({ SCOBY_CACHE_DIR: '/cache' })).toBe(
      `/cache/kube/kubernetes-${KUBE_RELEASE.kubernetes}-etcd-${KUBE_RELEASE.etcd}-kwok-${KUBE_RELEASE.kwok}`,
    );
    expect(binariesCacheFolder({ XDG_CACHE_HOME: '/xdg' })).toMatch(/^\/xdg\/scoby\/kube\/kubernetes-v1\./);
  });

  it("keeps the node's binaries (kubelet, kube-proxy, kubeadm, CoreDNS, pause) in a folder of their own", () => {
    expect(KUBE_RELEASE).toMatchObject({ coredns: 'v1.12.1', pause: '3.10.1' });
    expect(nodeBinariesCacheFolder({ SCOBY_CACHE_DIR: '/cache' })).toBe(
      `/cache/kube/node-${KUBE_RELEASE.kubernetes}-coredns-v1.12.1-pause-3.10.1`,
    );
  });

  it('is KUBEBUILDER_ASSETS when that folder holds every binary and the kwok stages', async () => {
    const assets = await folderWith([...KUBE_BINARIES, 'kwok-stages.yaml']);
    expect(locateBinaries({ KUBEBUILDER_ASSETS: assets, SCOBY_CACHE_DIR: '/nowhere' })).toEqual({
      ok: true,
      folder: assets,
    });
  });

  it('is not an envtest folder that lacks kwok and the other components', async () => {
    const envtest = await folderWith(['etcd', 'kube-apiserver', 'kubectl']);
    const cache = await folderWith([]);
    const located = locateBinaries({ KUBEBUILDER_ASSETS: envtest, SCOBY_CACHE_DIR: cache });
    expect(located).toEqual({
      ok: false,
      // The published packages run outside the repository: the way in there is KUBEBUILDER_ASSETS.
      message:
        `the Kubernetes binaries of release ${KUBE_RELEASE.kubernetes} are not found (${binariesCacheFolder({ SCOBY_CACHE_DIR: cache })} lacks etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, kubectl, kwok-stages.yaml): ` +
        'set KUBEBUILDER_ASSETS to a folder holding etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, kubectl, kwok-stages.yaml, ' +
        'or build them into that folder from a clone of the Scoby repository with `npm run kube-binaries`',
    });
  });
});

describe('helm', () => {
  it('has a folder of its own per pinned version, so a new Helm does not rebuild Kubernetes', () => {
    expect(helmCacheFolder({ SCOBY_CACHE_DIR: '/cache' })).toBe(`/cache/helm/${KUBE_RELEASE.helm}`);
    expect(KUBE_RELEASE.helm).toMatch(/^v\d+\.\d+\.\d+$/);
  });

  it('is found once built, and otherwise says how to build it', async () => {
    const cache = await folderWith([]);
    const binary = join(helmCacheFolder({ SCOBY_CACHE_DIR: cache }), 'helm');
    expect(locateHelm({ SCOBY_CACHE_DIR: cache })).toEqual({
      ok: false,
      message: `helm is not built (${binary} is missing): run \`npm run kube-binaries\``,
    });
    await mkdir(helmCacheFolder({ SCOBY_CACHE_DIR: cache }), { recursive: true });
    await writeFile(binary, '');
    expect(locateHelm({ SCOBY_CACHE_DIR: cache })).toEqual({ ok: true, path: binary });
  });

  it('pins in kube-release.json only what the Kubernetes, node and helm archives hold', () => {
    // The team's prebuilt archives are used only when every pin of kube-release.json equals theirs: a
    // pin of anything else (Toxiproxy was one) makes every archive refused on every machine.
    expect(Object.keys(pinsOf(KUBE_RELEASE))).toEqual([
      'coredns',
      'etcd',
      'helm',
      'kubernetes',
      'kwok',
      'pause',
    ]);
  });

  it('keeps toxiproxy in a folder of its own, at the pinned version', async () => {
    expect(TOXIPROXY).toEqual({ module: 'github.com/Shopify/toxiproxy/v2', version: 'v2.5.0' });
    const cache = await mkdtemp(join(tmpdir(), 'cache-'));
    const binary = join(cache, 'toxiproxy', 'v2.5.0', 'toxiproxy-server');
    expect(toxiproxyCacheFolder({ SCOBY_CACHE_DIR: cache })).toBe(join(cache, 'toxiproxy', 'v2.5.0'));
    expect(locateToxiproxy({ SCOBY_CACHE_DIR: cache })).toEqual({
      ok: false,
      message: `toxiproxy is not built (${binary} is missing): run \`npm run kube-binaries\``,
    });
    await mkdir(toxiproxyCacheFolder({ SCOBY_CACHE_DIR: cache }), { recursive: true });
    await writeFile(binary, '');
    expect(locateToxiproxy({ SCOBY_CACHE_DIR: cache })).toEqual({ ok: true, path: binary });
  });
});
