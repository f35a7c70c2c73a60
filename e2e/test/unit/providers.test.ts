/** Provider selection: what E2E_CLUSTER means, and the exact words when k3s cannot run. */
import { describe, expect, it } from 'vitest';
import {
  chooseProvider,
  DEFAULT_K3S_IMAGE,
  k3sProbe,
  readSettings,
  type ContainerRuntime,
} from '../../src/index.ts';

const noRuntime: ContainerRuntime = {
  connect: () => Promise.reject(new Error('Could not find a working container runtime strategy')),
};
const runtimeWith = (images: string[], pullError?: string): ContainerRuntime & { pulled: string[] } => {
  const pulled: string[] = [];
  return {
    pulled,
    connect: async () => ({
      hasImage: async (image) => images.includes(image),
      pull: async (image) => {
        if (pullError !== undefined) throw new Error(pullError);
        pulled.push(image);
      },
    }),
  };
};

describe('readSettings', () => {
  it('defaults to the in-memory cluster and the default k3s image', () => {
    expect(readSettings({})).toEqual({
      ok: true,
      settings: { cluster: 'memory', k3sImage: DEFAULT_K3S_IMAGE, controllerImage: undefined },
    });
  });

  it('reads E2E_CLUSTER, K3S_IMAGE and E2E_CONTROLLER_IMAGE, ignoring blank values', () => {
    expect(
      readSettings({
        E2E_CLUSTER: 'auto',
        K3S_IMAGE: ' rancher/k3s:v1.32.1-k3s1 ',
        E2E_CONTROLLER_IMAGE: 'scoby:dev',
      }),
    ).toEqual({
      ok: true,
      settings: { cluster: 'auto', k3sImage: 'rancher/k3s:v1.32.1-k3s1', controllerImage: 'scoby:dev' },
    });
    expect(readSettings({ E2E_CLUSTER: '', K3S_IMAGE: ' ', E2E_CONTROLLER_IMAGE: '' })).toEqual(
      readSettings({}),
    );
  });

  it('rejects an unknown cluster choice', () => {
    expect(readSettings({ E2E_CLUSTER: 'kind' })).toEqual({
      ok: false,
      message: 'E2E_CLUSTER: "kind" is not one of "memory", "kwok", "k3s", "auto"',
    });
  });
});

describe('k3sProbe', () => {
  it('says that no container runtime answers', async () => {
    expect(await k3sProbe('rancher/k3s:v1', noRuntime)()).toBe(
      'no container runtime answers (Could not find a working container runtime strategy); start Docker or Podman, or set DOCKER_HOST',
    );
  });

  it('says that the image cannot be pulled', async () => {
    expect(await k3sProbe('rancher/k3s:nope', runtimeWith([], 'manifest unknown'))()).toBe(
      'image "rancher/k3s:nope" cannot be pulled (manifest unknown); set K3S_IMAGE to an image the runtime can get',
    );
  });

  it('pulls a missing image and then has no objection', async () => {
    const runtime = runtimeWith([]);
    expect(await k3sProbe('rancher/k3s:v1', runtime)()).toBeUndefined();
    expect(runtime.pulled).toEqual(['rancher/k3s:v1']);
  });

  it('does not pull an image the runtime already has', async () => {
    const runtime = runtimeWith(['rancher/k3s:v1']);
    expect(await k3sProbe('rancher/k3s:v1', runtime)()).toBeUndefined();
    expect(runtime.pulled).toEqual([]);
  });
});

describe('chooseProvider', () => {
  const blocked = async () => 'no container runtime answers (x)';
  const free = async () => undefined;

  it('uses memory without asking about k3s', async () => {
    expect(await chooseProvider('memory', () => Promise.reject(new Error('must not be called')))).toEqual({
      ok: true,
      provider: 'memory',
    });
  });

  it('uses the real control plane for kwok without asking about k3s', async () => {
    expect(await chooseProvider('kwok', () => Promise.reject(new Error('must not be called')))).toEqual({
      ok: true,
      provider: 'kwok',
    });
  });

  it('uses k3s when it can run, for k3s and for auto', async () => {
    expect(await chooseProvider('k3s', free)).toEqual({ ok: true, provider: 'k3s' });
    expect(await chooseProvider('auto', free)).toEqual({ ok: true, provider: 'k3s' });
  });

  it('fails k3s with the reason', async () => {
    expect(await chooseProvider('k3s', blocked)).toEqual({
      ok: false,
      message: 'E2E_CLUSTER=k3s: cannot run k3s: no container runtime answers (x)',
    });
  });

  it('falls back from auto to memory saying why', async () => {
    expect(await chooseProvider('auto', blocked)).toEqual({
      ok: true,
      provider: 'memory',
      notice: 'E2E_CLUSTER=auto: using the in-memory API server: no container runtime answers (x)',
    });
  });
});
