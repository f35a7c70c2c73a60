// Proof that the build recipe of the binaries still works when they come from a prebuilt archive:
// etcd, the cheapest of the pinned binaries, is built again from the Go module proxy exactly as
// kube-binaries.ts builds it (go-modules.ts#buildEtcd), with a Go build cache of its own so it is
// compiled, not found. Under the Go that built the reference it must equal it byte for byte; under
// another Go, its version must (`etcd --version` but the Go line). The reference is the prebuilt
// archive's etcd (its checksum checked) where the prebuilt folder holds the pinned archive, else the
// cache's. Run after `npm run kube-binaries`; CI runs it on every run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binariesCacheFolder, KUBE_RELEASE } from '../src/binaries.ts';
import { buildEtcd, fail, log } from './go-modules.ts';
import {
  parseSums,
  pinDifferences,
  prebuiltArchives,
  prebuiltFolder,
  RELEASE_FILE,
  sha256Of,
  SUMS_FILE,
} from './prebuilt.ts';
import { unpackTarZst, zstdTools } from './zstd-tar.ts';

/** The prebuilt archive's etcd, unpacked into `scratch`, or why there is none to compare with. */
async function prebuiltEtcd(scratch: string): Promise<{ path: string } | { why: string }> {
  const spec = prebuiltArchives().kubernetes;
  const folder = prebuiltFolder();
  const archive = folder === undefined ? undefined : join(folder, spec.archive);
  if (archive === undefined || !existsSync(archive) || !existsSync(join(folder!, SUMS_FILE)))
    return { why: `no prebuilt ${spec.archive} with a ${SUMS_FILE}` };
  const sums = parseSums(await readFile(join(folder!, SUMS_FILE), 'utf8'));
  if (sums.get(spec.archive) !== (await sha256Of(archive)))
    return { why: `${archive} does not match its checksum` };
  const [tool] = zstdTools();
  if (tool === undefined) return { why: 'nothing here reads zstd' };
  const into = join(scratch, 'prebuilt');
  await mkdir(into);
  const etcd = `${spec.folder}/etcd`;
  const release = `${spec.folder}/${RELEASE_FILE}`;
  await unpackTarZst(archive, into, tool, [etcd, release]);
  const differences = pinDifferences(JSON.parse(await readFile(join(into, release), 'utf8')), KUBE_RELEASE);
  if (differences.length > 0)
    return { why: `${archive} was built from other pins (${differences.join('; ')})` };
  if (sums.get(etcd) !== (await sha256Of(join(into, etcd))))
    fail(`the etcd inside ${archive} does not match its checksum in ${SUMS_FILE}`);
  return { path: join(into, etcd) };
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed: ${result.stderr || result.error}`);
  return result.stdout.trim();
}

/** `etcd --version` without the Go line: what a build of the same sources says under any Go. */
const versionOf = (etcd: string): string =>
  run(etcd, ['--version'])
    .split('\n')
    .filter((line) => !line.startsWith('Go Version:'))
    .join('; ');

const started = Date.now();
const scratch = await mkdtemp(join(tmpdir(), 'kube-recipe-'));
try {
  const fromArchive = await prebuiltEtcd(scratch);
  const cached = join(binariesCacheFolder(), 'etcd');
  if (!('path' in fromArchive) && !existsSync(cached))
    fail(
      `no etcd to compare with (${fromArchive.why}, and none in ${cached}): run \`npm run kube-binaries\` first`,
    );
  const reference = 'path' in fromArchive ? fromArchive.path : cached;
  log(
    `reference: ${'path' in fromArchive ? 'the prebuilt archive' : `the cache (${fromArchive.why})`}: ${reference}`,
  );

  process.env.GOCACHE = join(scratch, 'go-build-cache');
  buildEtcd(join(scratch, 'built'), join(scratch, 'work'));
  const built = join(scratch, 'built', 'etcd');

  const toolchain = run('go', ['env', 'GOVERSION']);
  const referenceGo = run('go', ['version', reference]).split(': ').pop()!;
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (toolchain === referenceGo) {
    const [want, have] = [await sha256Of(reference), await sha256Of(built)];
    if (want !== have)
      fail(`etcd built with ${toolchain} is ${have}, the reference built with the same Go is ${want}`);
    log(
      `etcd rebuilt from source with ${toolchain} in ${seconds} s equals the reference byte for byte (${have})`,
    );
  } else {
    const [want, have] = [versionOf(reference), versionOf(built)];
    if (want !== have)
      fail(`etcd built with ${toolchain} says "${have}", the reference (${referenceGo}) "${want}"`);
    log(
      `etcd rebuilt from source with ${toolchain} in ${seconds} s: the same version as the reference built with ` +
        `${referenceGo} (${have}); byte for byte only under ${referenceGo}`,
    );
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
