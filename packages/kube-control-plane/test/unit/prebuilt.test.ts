/**
 * The prebuilt archives (scripts/prebuilt.ts): made by `npm run kube-prebuilt` from a cache, used by
 * `npm run kube-binaries`, `kube-node-binaries` and `knative-binaries` only when their pins equal the repository's and
 * every checksum of SHA256SUMS matches, unpacked through `zstd` or Node's zlib alike. Fake binaries
 * stand in for the real ones: what is judged is the archive, not what it holds.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KUBE_RELEASE,
  TOXIPROXY_BINARY,
  toxiproxyCacheFolder,
  type KubeRelease,
} from '../../src/binaries.ts';
import {
  KNATIVE_RELEASE,
  KNATIVE_RELEASE_FILE,
  knativeCacheFolder,
  KNATIVE_INGRESS,
  knativePinHash,
  type KnativeRelease,
} from '../../src/knative.ts';
import {
  installPrebuilt,
  packPrebuilt,
  parseSums,
  prebuiltArchives,
  prebuiltFolder,
  sha256Of,
  SUMS_FILE,
  type PrebuiltArchive,
} from '../../scripts/prebuilt.ts';
import { packTarZst, zstdTools } from '../../scripts/zstd-tar.ts';

const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
const SPECS = prebuiltArchives({ SCOBY_CACHE_DIR: '/cache' });
const ALL = [SPECS.kubernetes, SPECS.node, SPECS.helm, SPECS.knative, SPECS.traefik];
const TOOLS = zstdTools();
if (TOOLS.length < 2)
  console.info(
    `only ${TOOLS.join(', ') || 'nothing'} reads zstd here: the other way of unpacking is not tested on this machine`,
  );
const scratch = await mkdtemp(join(tmpdir(), 'prebuilt-test-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A cache root holding the folder of each of `specs`: each file's content names it; kube-release.json
 *  is `release`, knative-release.json `knative`. */
async function fakeCache(
  release: KubeRelease | Record<string, unknown> = KUBE_RELEASE,
  { specs = ALL, knative = KNATIVE_RELEASE }: { specs?: PrebuiltArchive[]; knative?: object } = {},
): Promise<string> {
  const root = await mkdtemp(join(scratch, 'cache-'));
  for (const spec of specs) {
    await mkdir(join(root, spec.folder), { recursive: true });
    for (const name of spec.required)
      await writeFile(
        join(root, spec.folder, name),
        name === 'kube-release.json'
          ? JSON.stringify(release, null, 2) + '\n'
          : name === KNATIVE_RELEASE_FILE
            ? JSON.stringify(knative, null, 2) + '\n'
            : `fake ${spec.folder}/${name}\n`,
      );
  }
  return root;
}

/** A prebuilt folder packed from a fake cache (with `release` and `knative` as the pins packing is judged by). */
async function prebuiltOf(
  release: KubeRelease = KUBE_RELEASE,
  knative: object = KNATIVE_RELEASE,
): Promise<string> {
  const out = await mkdtemp(join(scratch, 'prebuilt-'));
  const pinsIn = (file: string) => (file === KNATIVE_RELEASE_FILE ? knative : release);
  const packed = ALL.map((spec) =>
    spec.pinnedBy === 'path'
      ? spec
      : { ...spec, pinnedBy: { ...spec.pinnedBy, pins: pinsIn(spec.pinnedBy.file) } },
  );
  await packPrebuilt(packed, { cacheRoot: await fakeCache(release, { knative }), out });
  return out;
}

async function editSums(prebuilt: string, change: (sums: Map<string, string>) => void): Promise<void> {
  const sums = parseSums(await readFile(join(prebuilt, SUMS_FILE), 'utf8'));
  change(sums);
  await writeFile(join(prebuilt, SUMS_FILE), [...sums].map(([path, sum]) => `${sum}  ${path}\n`).join(''));
}

async function install(spec: PrebuiltArchive, prebuilt: string | undefined, tool = TOOLS[0]) {
  const cacheRoot = await mkdtemp(join(scratch, 'fresh-'));
  const outcome = await installPrebuilt(spec, { prebuilt, cacheRoot, tool });
  // Whole or not at all: no staging folder is left, and a refused archive leaves no folder.
  const left = await readdir(cacheRoot);
  return { outcome, cacheRoot, left };
}

describe('the prebuilt folder', () => {
  it('is shared/prebuilt beside the repository, SCOBY_PREBUILT_DIR when set, none when that is empty', () => {
    expect(prebuiltFolder({})).toBe(join(REPOSITORY, '..', 'shared', 'prebuilt'));
    expect(prebuiltFolder({ SCOBY_PREBUILT_DIR: '/team/prebuilt' })).toBe('/team/prebuilt');
    expect(prebuiltFolder({ SCOBY_PREBUILT_DIR: '' })).toBeUndefined();
  });

  it('names its archives after the cache folders of the pins, helm and Traefik after their versions', () => {
    const { kubernetes, etcd, kwok, coredns, pause, helm } = KUBE_RELEASE;
    expect(ALL.map(({ archive, folder }) => ({ archive, folder }))).toEqual([
      {
        archive: `kubernetes-${kubernetes}-etcd-${etcd}-kwok-${kwok}.tar.zst`,
        folder: `kube/kubernetes-${kubernetes}-etcd-${etcd}-kwok-${kwok}`,
      },
      {
        archive: `node-${kubernetes}-coredns-${coredns}-pause-${pause}.tar.zst`,
        folder: `kube/node-${kubernetes}-coredns-${coredns}-pause-${pause}`,
      },
      { archive: `helm-${helm}.tar.zst`, folder: `helm/${helm}` },
      {
        archive: `knative-serving-${KNATIVE_RELEASE.serving}-${knativePinHash()}.tar.zst`,
        folder: `knative/serving-${KNATIVE_RELEASE.serving}-${knativePinHash()}`,
      },
      { archive: `traefik-${KNATIVE_INGRESS.traefik}.tar.zst`, folder: `traefik/${KNATIVE_INGRESS.traefik}` },
    ]);
  });

  it('keeps Knative in a folder named by a hash of its pins, which any pin moves and its comment does not', () => {
    const hash = (release: object) => knativePinHash(release as KnativeRelease);
    expect(knativePinHash()).toMatch(/^[0-9a-f]{12}$/);
    expect(knativeCacheFolder({ SCOBY_CACHE_DIR: '/cache' })).toBe(
      `/cache/knative/serving-${KNATIVE_RELEASE.serving}-${knativePinHash()}`,
    );
    expect(hash({ ...KNATIVE_RELEASE, $comment: 'another comment' })).toBe(knativePinHash());
    // Key order is not a pin either.
    const { caching, networking, serving } = KNATIVE_RELEASE;
    expect(hash({ serving, networking, caching })).toBe(knativePinHash());
    for (const key of ['serving', 'networking', 'caching'] as const)
      expect(hash({ ...KNATIVE_RELEASE, [key]: 'v0.0.1' })).not.toBe(knativePinHash());
  });
});

describe.each(TOOLS)('an archive unpacked with %s', (tool) => {
  let prebuilt: string;
  beforeAll(async () => {
    prebuilt = await mkdtemp(join(scratch, `prebuilt-${tool}-`));
    await packPrebuilt(ALL, { cacheRoot: await fakeCache(), out: prebuilt, tool });
  });

  it('is used when its pins equal the repository’s and every checksum matches', async () => {
    for (const spec of ALL) {
      const { outcome, cacheRoot, left } = await install(spec, prebuilt, tool);
      expect(outcome).toEqual({ used: true, checksums: spec.required.length + 1, tool });
      expect(left).toEqual([spec.folder.split('/')[0]]);
      expect((await readdir(join(cacheRoot, spec.folder))).sort()).toEqual([...spec.required].sort());
      expect(await readFile(join(cacheRoot, spec.folder, spec.required[0]!), 'utf8')).toBe(
        `fake ${spec.folder}/${spec.required[0]}\n`,
      );
    }
  });
});

describe('an archive that may not be used', () => {
  const kubernetes = SPECS.kubernetes;
  const file = (name: string) => `${kubernetes.folder}/${name}`;

  it('is one whose kube-release.json differs from the repository’s pins', async () => {
    const prebuilt = await prebuiltOf({ ...KUBE_RELEASE, kubernetes: 'v1.35.0', pause: '3.11' });
    const { outcome, left } = await install(kubernetes, prebuilt);
    expect(outcome).toEqual({
      used: false,
      reason:
        `${kubernetes.archive}: its kube-release.json has kubernetes "v1.35.0" where the repository pins "${KUBE_RELEASE.kubernetes}"; ` +
        `its kube-release.json has pause "3.11" where the repository pins "${KUBE_RELEASE.pause}"`,
    });
    expect(left).toEqual([]);
    // Its comment is not a pin.
    const commented = await prebuiltOf({ ...KUBE_RELEASE, $comment: 'another comment' } as KubeRelease);
    expect((await install(kubernetes, commented)).outcome.used).toBe(true);
  });

  it('is Knative whose knative-release.json differs from the repository’s pins', async () => {
    const prebuilt = await prebuiltOf(KUBE_RELEASE, { ...KNATIVE_RELEASE, networking: 'v0.0.0-other' });
    const { outcome, left } = await install(SPECS.knative, prebuilt);
    expect(outcome).toEqual({
      used: false,
      reason: `${SPECS.knative.archive}: its knative-release.json has networking "v0.0.0-other" where the repository pins "${KNATIVE_RELEASE.networking}"`,
    });
    expect(left).toEqual([]);
    // The Kubernetes archives of the same folder are not judged by Knative's pins.
    expect((await install(SPECS.kubernetes, prebuilt)).outcome.used).toBe(true);
  });

  it('is helm at another path than its pin', async () => {
    const prebuilt = await prebuiltOf();
    const other: PrebuiltArchive = { ...SPECS.helm, folder: 'helm/v4.3.0' };
    const cacheRoot = await fakeCache();
    await mkdir(join(cacheRoot, other.folder), { recursive: true });
    await writeFile(join(cacheRoot, other.folder, 'helm'), 'fake helm/v4.3.0/helm\n');
    await packPrebuilt([other], { cacheRoot, out: prebuilt });
    const { outcome } = await install(SPECS.helm, prebuilt);
    expect(outcome).toEqual({
      used: false,
      reason:
        `${SPECS.helm.archive}: helm/v4.3.0/helm is outside ${SPECS.helm.folder}/; ` +
        `it lacks ${SPECS.helm.folder}/helm`,
    });
  });

  it('is one a file of which does not match its checksum', async () => {
    const prebuilt = await prebuiltOf();
    await editSums(prebuilt, (sums) => sums.set(file('etcd'), '0'.repeat(64)));
    const { outcome, left } = await install(kubernetes, prebuilt);
    expect(outcome).toEqual({
      used: false,
      reason: `${kubernetes.archive}: ${file('etcd')} does not match its checksum in SHA256SUMS`,
    });
    expect(left).toEqual([]);
  });

  it('is one that does not match its own checksum', async () => {
    const prebuilt = await prebuiltOf();
    await editSums(prebuilt, (sums) => sums.set(kubernetes.archive, 'f'.repeat(64)));
    expect((await install(kubernetes, prebuilt)).outcome).toEqual({
      used: false,
      reason: `${kubernetes.archive} does not match its checksum in SHA256SUMS`,
    });
  });

  it('is one that lacks a file SHA256SUMS lists, or holds one it does not', async () => {
    const prebuilt = await prebuiltOf();
    await editSums(prebuilt, (sums) => {
      sums.set(file('kube-proxy'), 'a'.repeat(64));
      sums.delete(file('kwok'));
    });
    expect((await install(kubernetes, prebuilt)).outcome).toEqual({
      used: false,
      reason:
        `${kubernetes.archive}: ${file('kwok')} is not in SHA256SUMS; ` +
        `${file('kube-proxy')} is in SHA256SUMS but not in the archive`,
    });
  });

  it('is one that lacks a binary the scripts need, even where SHA256SUMS agrees', async () => {
    const cacheRoot = await fakeCache();
    await rm(join(cacheRoot, kubernetes.folder, 'kubectl'));
    const prebuilt = await mkdtemp(join(scratch, 'prebuilt-'));
    await expect(packPrebuilt([kubernetes], { cacheRoot, out: prebuilt })).rejects.toThrow(
      `${join(cacheRoot, kubernetes.folder)} lacks kubectl: build it first`,
    );
    // Packed by hand, with its SHA256SUMS.
    await packTarZst(cacheRoot, [kubernetes.folder], join(prebuilt, kubernetes.archive), TOOLS[0]!);
    const sums = new Map<string, string>();
    for (const name of await readdir(join(cacheRoot, kubernetes.folder)))
      sums.set(file(name), await sha256Of(join(cacheRoot, kubernetes.folder, name)));
    sums.set(kubernetes.archive, await sha256Of(join(prebuilt, kubernetes.archive)));
    await writeFile(join(prebuilt, SUMS_FILE), [...sums].map(([path, sum]) => `${sum}  ${path}\n`).join(''));
    expect((await install(kubernetes, prebuilt)).outcome).toEqual({
      used: false,
      reason: `${kubernetes.archive}: it lacks ${file('kubectl')}`,
    });
  });

  it('is none where the folder, the archive or SHA256SUMS is missing', async () => {
    const prebuilt = await prebuiltOf();
    expect((await install(kubernetes, undefined)).outcome).toEqual({
      used: false,
      reason: 'SCOBY_PREBUILT_DIR is empty',
    });
    expect((await install(kubernetes, join(scratch, 'nowhere'))).outcome).toEqual({
      used: false,
      reason: `there is no ${join(scratch, 'nowhere')}`,
    });
    await rm(join(prebuilt, SPECS.node.archive));
    expect((await install(SPECS.node, prebuilt)).outcome).toEqual({
      used: false,
      reason: `there is no ${join(prebuilt, SPECS.node.archive)}`,
    });
    await rm(join(prebuilt, SUMS_FILE));
    expect((await install(kubernetes, prebuilt)).outcome).toEqual({
      used: false,
      reason: `there is no ${join(prebuilt, SUMS_FILE)}`,
    });
  });
});

/**
 * A cache with nothing of the archives' in it. Toxiproxy (the fault bench's) is in no archive: it is
 * built from its module, 25 s, where the go this test forbids would run, so the cache has it already.
 */
async function coldCache(): Promise<string> {
  const cache = await mkdtemp(join(scratch, 'cold-'));
  const toxiproxy = toxiproxyCacheFolder({ SCOBY_CACHE_DIR: cache });
  mkdirSync(toxiproxy, { recursive: true });
  writeFileSync(join(toxiproxy, TOXIPROXY_BINARY), '#!/bin/sh\n');
  chmodSync(join(toxiproxy, TOXIPROXY_BINARY), 0o755);
  return cache;
}

/** The scripts as `npm run` runs them, with a `go` that fails: a build from source cannot pass unseen. */
function runScript(script: string, env: Record<string, string>, args: string[] = []) {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'go'),
    '#!/bin/sh\necho "go may not run in this test (GOFLAGS=$GOFLAGS)" >&2\nexit 1\n',
  );
  chmodSync(join(bin, 'go'), 0o755);
  const result = spawnSync(
    process.execPath,
    [
      join(REPOSITORY, 'node_modules/tsx/dist/cli.mjs'),
      '--conditions=@scoby/source',
      join(REPOSITORY, 'packages/kube-control-plane/scripts', script),
      ...args,
    ],
    {
      cwd: REPOSITORY,
      encoding: 'utf8',
      env: { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: scratch, ...env },
    },
  );
  return { status: result.status, stdout: result.stdout.trim().split('\n'), stderr: result.stderr };
}

describe('npm run kube-binaries and kube-node-binaries', () => {
  it('unpack the archives `npm run kube-prebuilt` made into a cold cache, saying so, with no Go at work', async () => {
    const prebuilt = join(await mkdtemp(join(scratch, 'team-')), 'prebuilt');
    const made = runScript('kube-prebuilt.ts', { SCOBY_CACHE_DIR: await fakeCache() }, [prebuilt]);
    expect(made.status).toBe(0);
    expect(made.stderr).toContain(`kube-binaries: wrote ${join(prebuilt, SUMS_FILE)}`);
    expect((await readdir(prebuilt)).sort()).toEqual(
      [...ALL.map(({ archive }) => archive), SUMS_FILE].sort(),
    );
    const cache = await coldCache();
    const env = { SCOBY_CACHE_DIR: cache, SCOBY_PREBUILT_DIR: prebuilt };
    const control = runScript('kube-binaries.ts', env);
    expect(control.stderr).toContain(
      `kube-binaries: helm ${KUBE_RELEASE.helm}: unpacked from the prebuilt ${join(prebuilt, SPECS.helm.archive)}`,
    );
    expect(control.stderr).toContain(
      `: unpacked from the prebuilt ${join(prebuilt, SPECS.kubernetes.archive)}`,
    );
    expect(control.status).toBe(0);
    expect(control.stdout.at(-1)).toBe(join(cache, SPECS.kubernetes.folder));
    const node = runScript('kube-node-binaries.ts', env);
    expect(node.stderr).toContain(`: unpacked from the prebuilt ${join(prebuilt, SPECS.node.archive)}`);
    expect(node.status).toBe(0);
    expect(node.stdout.at(-1)).toBe(join(cache, SPECS.node.folder));
    // Then the cache serves them.
    expect(runScript('kube-binaries.ts', env).stderr).toContain(
      `kube-binaries: cached in ${join(cache, SPECS.kubernetes.folder)}`,
    );
  }, 60_000);

  it('build from source, saying why, when the archive is not of the pins', async () => {
    const prebuilt = await prebuiltOf({ ...KUBE_RELEASE, etcd: 'v3.5.0' });
    const cache = await coldCache();
    const control = runScript('kube-binaries.ts', { SCOBY_CACHE_DIR: cache, SCOBY_PREBUILT_DIR: prebuilt });
    expect(control.stderr).toContain(
      `building from source, not from a prebuilt archive: ${SPECS.kubernetes.archive}: its kube-release.json has etcd "v3.5.0" where the repository pins "${KUBE_RELEASE.etcd}"`,
    );
    expect(control.stderr).toContain('kube-binaries: Go is not installed');
    expect(control.status).toBe(1);
  }, 60_000);
});

describe('npm run knative-binaries', () => {
  const knative = SPECS.knative;

  it('unpacks the archives `npm run kube-prebuilt` made (Serving, Traefik) into a cold cache, saying so and printing their folders, with no Go at work', async () => {
    const prebuilt = join(await mkdtemp(join(scratch, 'team-')), 'prebuilt');
    expect(runScript('kube-prebuilt.ts', { SCOBY_CACHE_DIR: await fakeCache() }, [prebuilt]).status).toBe(0);
    const cache = await coldCache();
    const env = { SCOBY_CACHE_DIR: cache, SCOBY_PREBUILT_DIR: prebuilt };
    const first = runScript('knative-binaries.ts', env);
    expect(first.stderr).toContain(
      `kube-binaries: Knative Serving ${KNATIVE_RELEASE.serving}: unpacked from the prebuilt ${join(prebuilt, knative.archive)} ` +
        `(pins equal the repository's, ${knative.required.length + 1} checksums match; `,
    );
    expect(first.stderr).toContain(
      `kube-binaries: Traefik ${KNATIVE_INGRESS.traefik}: unpacked from the prebuilt ${join(prebuilt, SPECS.traefik.archive)} ` +
        `(pins equal the repository's, 2 checksums match; `,
    );
    expect(first.status).toBe(0);
    expect(first.stdout.slice(-2)).toEqual([join(cache, knative.folder), join(cache, SPECS.traefik.folder)]);
    expect(await readFile(join(cache, knative.folder, 'queue'), 'utf8')).toBe(
      `fake ${knative.folder}/queue\n`,
    );
    const second = runScript('knative-binaries.ts', env);
    expect(second.stderr).toContain(
      `kube-binaries: Knative Serving ${KNATIVE_RELEASE.serving} cached in ${join(cache, knative.folder)}`,
    );
    expect(second.stderr).toContain(
      `kube-binaries: Traefik ${KNATIVE_INGRESS.traefik} cached in ${join(cache, SPECS.traefik.folder)}`,
    );
    expect(second.stdout.slice(-2)).toEqual([join(cache, knative.folder), join(cache, SPECS.traefik.folder)]);
  }, 60_000);

  it('builds from source, saying why, when a binary does not match its checksum', async () => {
    const prebuilt = await prebuiltOf();
    await editSums(prebuilt, (sums) => sums.set(`${knative.folder}/controller`, '0'.repeat(64)));
    // A shared machine's GOFLAGS (one compile at a time) reach the build.
    const built = runScript('knative-binaries.ts', {
      SCOBY_CACHE_DIR: await coldCache(),
      SCOBY_PREBUILT_DIR: prebuilt,
      GOFLAGS: '-p=1',
    });
    expect(built.stderr).toContain(
      `kube-binaries: Knative Serving ${KNATIVE_RELEASE.serving}: building from source, not from a prebuilt archive: ` +
        `${knative.archive}: ${knative.folder}/controller does not match its checksum in ${SUMS_FILE}\n`,
    );
    // The build from source starts, and the test's go refuses it.
    expect(built.stderr).toContain(
      `kube-binaries: go get knative.dev/serving/cmd/controller@${KNATIVE_RELEASE.serving} `,
    );
    expect(built.stderr).toContain('go may not run in this test (GOFLAGS=-p=1 -buildvcs=false)');
    expect(built.status).toBe(1);
  }, 60_000);

  it('is left out of `npm run kube-prebuilt`, saying so, when the cache has no Knative or Traefik folder', async () => {
    const prebuilt = join(await mkdtemp(join(scratch, 'team-')), 'prebuilt');
    const cache = await fakeCache(KUBE_RELEASE, { specs: [SPECS.kubernetes, SPECS.node, SPECS.helm] });
    const made = runScript('kube-prebuilt.ts', { SCOBY_CACHE_DIR: cache }, [prebuilt]);
    expect(made.stderr).toContain(
      `kube-binaries: leaving out Knative Serving ${KNATIVE_RELEASE.serving}: ${join(cache, knative.folder)} is not there (npm run knative-binaries)`,
    );
    expect(made.stderr).toContain(
      `kube-binaries: leaving out Traefik ${KNATIVE_INGRESS.traefik}: ${join(cache, SPECS.traefik.folder)} is not there (npm run knative-binaries)`,
    );
    expect(made.status).toBe(0);
    expect((await readdir(prebuilt)).sort()).toEqual(
      [SPECS.kubernetes.archive, SPECS.node.archive, SPECS.helm.archive, SUMS_FILE].sort(),
    );
  }, 60_000);
});
