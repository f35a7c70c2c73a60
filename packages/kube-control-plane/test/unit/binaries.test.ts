import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binariesCacheFolder, KUBE_BINARIES, KUBE_RELEASE, locateBinaries } from '../../src/binaries.ts';

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
      message: `the Kubernetes binaries are not built (${binariesCacheFolder({ SCOBY_CACHE_DIR: cache })} lacks etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, kubectl, kwok-stages.yaml): run \`npm run kube-binaries\``,
    });
  });
});
