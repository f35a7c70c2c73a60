// tar archives compressed with zstd, through Debian's `zstd` when it is on PATH, else through the zlib
// of Node 22.15 and newer (createZstdCompress/Decompress, which @types/node 20 does not declare). tar
// itself is the system's (GNU tar on Debian).
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';

export type ZstdTool = 'zstd' | 'node-zlib';

interface ZstdZlib {
  createZstdCompress?: () => Transform;
  createZstdDecompress?: () => Transform;
}

/** The tools that can (de)compress zstd here, preferred first; `only` restricts them (tests use it). */
export function zstdTools(only?: ZstdTool): ZstdTool[] {
  const tools: ZstdTool[] = [];
  if (spawnSync('zstd', ['--version'], { stdio: 'ignore' }).status === 0) tools.push('zstd');
  const node = zlib as ZstdZlib;
  if (node.createZstdCompress && node.createZstdDecompress) tools.push('node-zlib');
  return only === undefined ? tools : tools.filter((tool) => tool === only);
}

/** What neither tool being present means, for the user. */
export const NO_ZSTD =
  'neither `zstd` (apt-get install zstd) nor the zlib of Node 22.15 or newer can read zstd';

function exited(child: ReturnType<typeof spawn>, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

/** Unpacks `archive` into `folder`; `members` limits it to those paths. */
export async function unpackTarZst(
  archive: string,
  folder: string,
  tool: ZstdTool,
  members: string[] = [],
): Promise<void> {
  const extract = ['-x', '--no-same-owner', '-C', folder];
  if (tool === 'zstd') {
    // tar runs zstd itself, and reads its output to the end.
    const tar = spawn('tar', [...extract, '--use-compress-program=zstd -d', '-f', archive, ...members], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return exited(tar, `tar -x of ${archive}`);
  }
  const tar = spawn('tar', [...extract, '-f', '-', ...members], { stdio: ['pipe', 'ignore', 'pipe'] });
  const done = exited(tar, `tar -x of ${archive}`);
  const feed = pipeline(
    createReadStream(archive),
    (zlib as ZstdZlib).createZstdDecompress!(),
    tar.stdin as Writable,
  );
  // tar may stop reading at the archive's end marker, before the padding after it: once tar has
  // succeeded, the closed pipe behind it is no error.
  await Promise.all([done, feed.catch((error: unknown) => done.then(() => ignoreClosedPipe(error)))]);
}

function ignoreClosedPipe(error: unknown): void {
  const code = (error as { code?: string }).code;
  if (code !== 'EPIPE' && code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
}

/** Packs `paths` (relative to `root`) into `archive`, in name order with neutral owners and times. */
export async function packTarZst(
  root: string,
  paths: string[],
  archive: string,
  tool: ZstdTool,
): Promise<void> {
  const create = ['-c', '--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-C', root];
  if (tool === 'zstd') {
    const tar = spawn('tar', [...create, '--use-compress-program=zstd -q -T0', '-f', archive, ...paths], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return exited(tar, `tar -c into ${archive}`);
  }
  const tar = spawn('tar', [...create, '-f', '-', ...paths], { stdio: ['ignore', 'pipe', 'pipe'] });
  await Promise.all([
    pipeline(tar.stdout as Readable, (zlib as ZstdZlib).createZstdCompress!(), createWriteStream(archive)),
    exited(tar, `tar -c in ${root}`),
  ]);
}
