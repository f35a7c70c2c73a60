/** Provider selection: what E2E_CLUSTER means, and the exact words when k3s cannot run. */
import { describe, expect, it } from 'vitest';
import {
  chooseProvider,
  DEFAULT_K3S_IMAGE,
  DEFAULT_NODE_CONTROLLER_IMAGE,
  DEFAULT_NODE_IMAGE,
  k3sProbe,
  localImageProbe,
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
      settings: {
        cluster: 'memory',
        k3sImage: DEFAULT_K3S_IMAGE,
        nodeImage: DEFAULT_NODE_IMAGE,
        controllerImage: undefined,
        replicas: 1,
        knative: false,
      },
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
      settings: {
        cluster: 'auto',
        k3sImage: 'rancher/k3s:v1.32.1-k3s1',
        nodeImage: DEFAULT_NODE_IMAGE,
        controllerImage: 'scoby:dev',
        replicas: 1,
        knative: false,
      },
    });
    expect(readSettings({ E2E_CLUSTER: '', K3S_IMAGE: ' ', E2E_CONTROLLER_IMAGE: '' })).toEqual(
      readSettings({}),
    );
  });

  it('reads E2E_SCOBY_REPLICAS, and rejects what is not a count', () => {
    expect(readSettings({ E2E_SCOBY_REPLICAS: '3' })).toMatchObject({ ok: true, settings: { replicas: 3 } });
    for (const value of ['0', '-1', '1.5', 'three', '100']) {
      expect(readSettings({ E2E_SCOBY_REPLICAS: value })).toEqual({
        ok: false,
        message: `E2E_SCOBY_REPLICAS: "${value}" is not a whole number from 1 to 99`,
      });
    }
  });

  it('reads E2E_KNATIVE on the node provider only, and rejects what is neither 1 nor 0', () => {
    expect(readSettings({ E2E_CLUSTER: 'node', E2E_KNATIVE: '1' })).toMatchObject({
      ok: true,
      settings: { knative: true },
    });
    expect(readSettings({ E2E_CLUSTER: 'node', E2E_KNATIVE: '0' })).toMatchObject({
      ok: true,
      settings: { knative: false },
    });
    expect(readSettings({ E2E_CLUSTER: 'kwok', E2E_KNATIVE: '1' })).toEqual({
      ok: false,
      message: 'E2E_KNATIVE=1 needs E2E_CLUSTER=node (this run: kwok)',
    });
    expect(readSettings({ E2E_CLUSTER: 'node', E2E_KNATIVE: 'yes' })).toEqual({
      ok: false,
      message: 'E2E_KNATIVE: "yes" is neither 1 nor 0',
    });
  });

  it('rejects an unknown cluster choice', () => {
    expect(readSettings({ E2E_CLUSTER: 'kind' })).toEqual({
      ok: false,
      message: 'E2E_CLUSTER: "kind" is not one of "memory", "kwok", "k3s", "node", "auto"',
    });
  });

  it('gives the node provider the images npm run images builds, unless told otherwise', () => {
    expect(DEFAULT_NODE_IMAGE).toBe('scoby.local/kube-node:v1.34.4');
    expect(readSettings({ E2E_CLUSTER: 'node' })).toMatchObject({
      ok: true,
      settings: { nodeImage: DEFAULT_NODE_IMAGE, controllerImage: DEFAULT_NODE_CONTROLLER_IMAGE },
    });
    expect(
      readSettings({ E2E_CLUSTER: 'node', E2E_NODE_IMAGE: 'node:x', E2E_CONTROLLER_IMAGE: 'scoby:y' }),
    ).toMatchObject({ ok: true, settings: { nodeImage: 'node:x', controllerImage: 'scoby:y' } });
  });
});

describe('localImageProbe', () => {
  it('never pulls: a missing node image is built with npm run images', async () => {
    const runtime = runtimeWith([]);
    expect(await localImageProbe('scoby.local/kube-node:v1', runtime)()).toBe(
      'image "scoby.local/kube-node:v1" is not in the container runtime; build it with `npm run images`',
    );
    expect(runtime.pulled).toEqual([]);
    expect(
      await localImageProbe('scoby.local/kube-node:v1', runtimeWith(['scoby.local/kube-node:v1']))(),
    ).toBeUndefined();
  });

  it('says that no container runtime answers', async () => {
    expect(await localImageProbe('scoby.local/kube-node:v1', noRuntime)()).toBe(
      'no container runtime answers (Could not find a working container runtime strategy); start Docker, e.g. e2e/scripts/with-docker-engine.sh',
    );
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

  it('uses the node image for node, never for auto, and fails node with the reason', async () => {
    const unused = () => Promise.reject(new Error('must not be called'));
    expect(await chooseProvider('node', unused, free)).toEqual({ ok: true, provider: 'node' });
    expect(
      await chooseProvider('node', unused, async () => 'image "n" is not in the container runtime'),
    ).toEqual({
      ok: false,
      message: 'E2E_CLUSTER=node: cannot start the node image: image "n" is not in the container runtime',
    });
    expect(await chooseProvider('auto', free, unused)).toEqual({ ok: true, provider: 'k3s' });
  });

  it('falls back from auto to memory saying why', async () => {
    expect(await chooseProvider('auto', blocked)).toEqual({
      ok: true,
      provider: 'memory',
      notice: 'E2E_CLUSTER=auto: using the in-memory API server: no container runtime answers (x)',
    });
  });
});
