// Archives of binaries built from the repository's pins (kube-release.json), kept in a folder a team
// shares (`../shared/prebuilt` beside the repository, or $SCOBY_PREBUILT_DIR), so a new machine
// unpacks in seconds what takes 30–45 minutes to compile. An archive is used only when the pins it
// was built from equal the repository's and every checksum of the folder's SHA256SUMS matches what it
// holds; anything else builds from source, as without the folder.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  binariesCacheFolder,
  cacheRoot,
  helmCacheFolder,
  KUBE_BINARIES,
  KUBE_RELEASE,
  KWOK_STAGES_FILE,
  NODE_BINARIES,
  nodeBinariesCacheFolder,
  pinsOf,
} from '../src/binaries.ts';
import {
  KNATIVE_BINARIES,
  KNATIVE_RELEASE,
  KNATIVE_RELEASE_FILE,
  knativeCacheFolder,
  KNATIVE_INGRESS,
  traefikCacheFolder,
} from '../src/knative.ts';
import { NO_ZSTD, packTarZst, unpackTarZst, zstdTools, type ZstdTool } from './zstd-tar.ts';

export const SUMS_FILE = 'SHA256SUMS';
export const RELEASE_FILE = 'kube-release.json';

/** One archive of the prebuilt folder and what it must hold. */
export interface PrebuiltArchive {
  /** What it holds, for the log. */
  what: string;
  /** Its file name in the prebuilt folder. */
  archive: string;
  /** The one folder it unpacks to, relative to the cache root (the build scripts' cache layout). */
  folder: string;
  /** Files that folder must hold. */
  required: readonly string[];
  /** Where its pins are: a release file inside it that must hold `pins`, or (helm, Traefik: a single binary) its path. */
  pinnedBy: { file: string; pins: object } | 'path';
}

/** The archives of the repository's pins, named as `npm run kube-prebuilt` writes them. */
export function prebuiltArchives(
  env: NodeJS.ProcessEnv = process.env,
): Record<'kubernetes' | 'node' | 'helm' | 'knative' | 'traefik', PrebuiltArchive> {
  const root = cacheRoot(env);
  const kubernetes = relative(root, binariesCacheFolder(env));
  const node = relative(root, nodeBinariesCacheFolder(env));
  const knative = relative(root, knativeCacheFolder(env));
  const kubePins = { file: RELEASE_FILE, pins: KUBE_RELEASE };
  return {
    kubernetes: {
      what: `Kubernetes ${KUBE_RELEASE.kubernetes} control plane, etcd ${KUBE_RELEASE.etcd}, kwok ${KUBE_RELEASE.kwok}`,
      archive: `${kubernetes.split('/').pop()}.tar.zst`,
      folder: kubernetes,
      required: [...KUBE_BINARIES, KWOK_STAGES_FILE, RELEASE_FILE],
      pinnedBy: kubePins,
    },
    node: {
      what: `node binaries of Kubernetes ${KUBE_RELEASE.kubernetes}, CoreDNS ${KUBE_RELEASE.coredns}, pause ${KUBE_RELEASE.pause}`,
      archive: `${node.split('/').pop()}.tar.zst`,
      folder: node,
      required: [...NODE_BINARIES, RELEASE_FILE],
      pinnedBy: kubePins,
    },
    helm: {
      what: `helm ${KUBE_RELEASE.helm}`,
      archive: `helm-${KUBE_RELEASE.helm}.tar.zst`,
      folder: relative(root, helmCacheFolder(env)),
      required: ['helm'],
      pinnedBy: 'path',
    },
    knative: {
      what: `Knative Serving ${KNATIVE_RELEASE.serving}`,
      archive: `knative-${knative.split('/').pop()}.tar.zst`,
      folder: knative,
      required: [...KNATIVE_BINARIES, KNATIVE_RELEASE_FILE],
      pinnedBy: { file: KNATIVE_RELEASE_FILE, pins: KNATIVE_RELEASE },
    },
    traefik: {
      what: `Traefik ${KNATIVE_INGRESS.traefik}`,
      archive: `traefik-${KNATIVE_INGRESS.traefik}.tar.zst`,
      folder: relative(root, traefikCacheFolder(env)),
      required: ['traefik'],
      pinnedBy: 'path',
    },
  };
}

/**
 * $SCOBY_PREBUILT_DIR (empty: none), else `shared/prebuilt` in the folder that holds the repository
 * (this file's repository, so a script run from any folder finds the same one).
 */
export function prebuiltFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.SCOBY_PREBUILT_DIR;
  if (configured !== undefined) return configured === '' ? undefined : resolve(configured);
  return fileURLToPath(new URL('../../../../shared/prebuilt', import.meta.url));
}

/** How `found` differs from the repository's pins, one phrase per field; empty when they are equal. */
export function pinDifferences(found: Record<string, unknown>, pinned: object): string[] {
  const want = pinsOf(pinned);
  const have = pinsOf(found);
  return [...new Set([...Object.keys(want), ...Object.keys(have)])]
    .sort()
    .filter((key) => JSON.stringify(want[key]) !== JSON.stringify(have[key]))
    .map(
      (key) =>
        `${key} ${have[key] === undefined ? 'absent' : JSON.stringify(have[key])} where the repository pins ${want[key] === undefined ? 'nothing' : JSON.stringify(want[key])}`,
    );
}

/** SHA256SUMS as sha256sum writes it: `<hex>  <path>` (or `<hex> *<path>`) per line. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
    if (match) sums.set(match[2]!, match[1]!);
  }
  return sums;
}

export function formatSums(sums: Map<string, string>): string {
  return [...sums].map(([path, sum]) => `${sum}  ${path}\n`).join('');
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every regular file under `folder`, as paths relative to it; anything else (a link, a device) is named too. */
async function filesUnder(folder: string): Promise<{ files: string[]; others: string[] }> {
  const files: string[] = [];
  const others: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    const path = relative(folder, join(entry.parentPath, entry.name));
    if (entry.isFile()) files.push(path);
    else if (!entry.isDirectory()) others.push(path);
  }
  return { files: files.sort(), others: others.sort() };
}

/**
 * What is wrong with an unpacked archive (its files relative to the cache root in `unpacked`),
 * judged against SHA256SUMS and the repository's pins; empty when it may be used.
 */
export async function problemsOf(
  spec: PrebuiltArchive,
  unpacked: string,
  sums: Map<string, string>,
): Promise<string[]> {
  const problems: string[] = [];
  const { files, others } = await filesUnder(unpacked);
  for (const path of others) problems.push(`${path} is not a regular file`);
  for (const path of files) {
    if (!path.startsWith(`${spec.folder}/`)) problems.push(`${path} is outside ${spec.folder}/`);
    const listed = sums.get(path);
    if (listed === undefined) problems.push(`${path} is not in ${SUMS_FILE}`);
    else if (listed !== (await sha256Of(join(unpacked, path))))
      problems.push(`${path} does not match its checksum in ${SUMS_FILE}`);
  }
  for (const path of sums.keys())
    if (path.startsWith(`${spec.folder}/`) && !files.includes(path))
      problems.push(`${path} is in ${SUMS_FILE} but not in the archive`);
  for (const name of spec.required)
    if (!files.includes(`${spec.folder}/${name}`)) problems.push(`it lacks ${spec.folder}/${name}`);
  const pinnedBy = spec.pinnedBy;
  if (pinnedBy !== 'path' && files.includes(`${spec.folder}/${pinnedBy.file}`)) {
    const found = JSON.parse(await readFile(join(unpacked, spec.folder, pinnedBy.file), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const difference of pinDifferences(found, pinnedBy.pins))
      problems.push(`its ${pinnedBy.file} has ${difference}`);
  }
  return problems;
}

export type PrebuiltOutcome =
  { used: true; checksums: number; tool: ZstdTool } | { used: false; reason: string };

/**
 * Unpacks `spec` from the prebuilt folder into the cache root when it may be used (see problemsOf);
 * the folder appears whole or not at all.
 */
export async function installPrebuilt(
  spec: PrebuiltArchive,
  options: { prebuilt: string | undefined; cacheRoot: string; tool?: ZstdTool },
): Promise<PrebuiltOutcome> {
  const { prebuilt } = options;
  if (prebuilt === undefined) return { used: false, reason: 'SCOBY_PREBUILT_DIR is empty' };
  if (!existsSync(prebuilt)) return { used: false, reason: `there is no ${prebuilt}` };
  const archive = join(prebuilt, spec.archive);
  if (!existsSync(archive)) return { used: false, reason: `there is no ${archive}` };
  const sumsFile = join(prebuilt, SUMS_FILE);
  if (!existsSync(sumsFile)) return { used: false, reason: `there is no ${sumsFile}` };
  const sums = parseSums(await readFile(sumsFile, 'utf8'));
  const archiveSum = sums.get(spec.archive);
  if (archiveSum === undefined)
    return { used: false, reason: `${SUMS_FILE} has no line for ${spec.archive}` };
  if (archiveSum !== (await sha256Of(archive)))
    return { used: false, reason: `${spec.archive} does not match its checksum in ${SUMS_FILE}` };
  const [tool] = zstdTools(options.tool);
  if (tool === undefined) return { used: false, reason: NO_ZSTD };

  await mkdir(options.cacheRoot, { recursive: true });
  const staging = await mkdtemp(join(options.cacheRoot, '.prebuilt-'));
  try {
    await unpackTarZst(archive, staging, tool);
    const problems = await problemsOf(spec, staging, sums);
    if (problems.length > 0) return { used: false, reason: `${spec.archive}: ${problems.join('; ')}` };
    const target = join(options.cacheRoot, spec.folder);
    await mkdir(join(target, '..'), { recursive: true });
    await rm(target, { recursive: true, force: true });
    await rename(join(staging, spec.folder), target);
    const checksums = [...sums.keys()].filter((path) => path.startsWith(`${spec.folder}/`)).length + 1;
    return { used: true, checksums, tool };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The build scripts' way in: installs `spec` from the prebuilt folder when it applies and says which
 * way it went. True when the folder is now in the cache; false means: build from source.
 */
export async function fromPrebuilt(
  spec: PrebuiltArchive,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const prebuilt = prebuiltFolder(env);
  const outcome = await installPrebuilt(spec, { prebuilt, cacheRoot: cacheRoot(env) });
  if (outcome.used)
    log(
      `${spec.what}: unpacked from the prebuilt ${join(prebuilt!, spec.archive)} (pins equal the repository's, ` +
        `${outcome.checksums} checksums match; ${outcome.tool}) into ${join(cacheRoot(env), spec.folder)}`,
    );
  else log(`${spec.what}: building from source, not from a prebuilt archive: ${outcome.reason}`);
  return outcome.used;
}

/**
 * Writes the archives of `specs` from the cache root into `out`, with a SHA256SUMS of every file
 * they hold and of the archives; refuses a folder that is incomplete or built from other pins.
 */
export async function packPrebuilt(
  specs: PrebuiltArchive[],
  options: { cacheRoot: string; out: string; tool?: ZstdTool },
): Promise<string[]> {
  const [tool] = zstdTools(options.tool);
  if (tool === undefined) throw new Error(NO_ZSTD);
  const sums = new Map<string, string>();
  for (const spec of specs) {
    const folder = join(options.cacheRoot, spec.folder);
    const { files } = await filesUnder(folder);
    const missing = spec.required.filter((name) => !files.includes(name));
    if (missing.length > 0) throw new Error(`${folder} lacks ${missing.join(', ')}: build it first`);
    if (spec.pinnedBy !== 'path') {
      const found = JSON.parse(await readFile(join(folder, spec.pinnedBy.file), 'utf8')) as Record<
        string,
        unknown
      >;
      const differences = pinDifferences(found, spec.pinnedBy.pins);
      if (differences.length > 0)
        throw new Error(`${folder} was built from other pins: ${differences.join('; ')}`);
    }
    for (const file of files) sums.set(`${spec.folder}/${file}`, await sha256Of(join(folder, file)));
  }
  await mkdir(options.out, { recursive: true });
  const archives = new Map<string, string>();
  for (const spec of specs) {
    const archive = join(options.out, spec.archive);
    await packTarZst(options.cacheRoot, [spec.folder], archive, tool);
    archives.set(spec.archive, await sha256Of(archive));
  }
  const sorted = new Map([...sums].sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeFile(join(options.out, SUMS_FILE), formatSums(new Map([...sorted, ...archives])));
  return specs.map((spec) => join(options.out, spec.archive));
}
