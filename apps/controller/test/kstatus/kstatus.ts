/**
 * kstatus as Flux and kpt compute it: main.go here, built once from sigs.k8s.io/cli-utils (go.mod pins
 * it) into the cache folder outside the work tree, named by a hash of its sources, as
 * packages/kube-control-plane builds its binaries.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot } from '@scoby/kube-control-plane';

const SOURCE = fileURLToPath(new URL('.', import.meta.url));
const FILES = ['main.go', 'go.mod', 'go.sum'];

export interface KstatusVerdict {
  status: 'InProgress' | 'Failed' | 'Current' | 'Terminating' | 'NotFound' | 'Unknown' | '';
  message: string;
  error?: string;
}

/** The binary, built when its sources changed; the cold build's time is logged. */
export function kstatusBinary(): string {
  const hash = createHash('sha256');
  for (const file of FILES) hash.update(readFileSync(join(SOURCE, file)));
  const folder = join(cacheRoot(process.env), 'kstatus', hash.digest('hex').slice(0, 16));
  const binary = join(folder, 'kstatus');
  if (existsSync(binary)) return binary;
  mkdirSync(folder, { recursive: true });
  const started = Date.now();
  const built = spawnSync('go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', `${binary}.partial`, '.'], {
    cwd: SOURCE,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-buildvcs=false -mod=readonly', CGO_ENABLED: '0' },
  });
  if (built.error) throw new Error(`cannot run go: ${built.error.message}`);
  if (built.status !== 0) throw new Error(`go build of ${SOURCE} failed (exit ${built.status})`);
  renameSync(`${binary}.partial`, binary);
  process.stderr.write(`kstatus: built ${binary} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return binary;
}

/** kstatus's verdict on each object, in order. */
export function computeKstatus(binary: string, objects: readonly unknown[]): KstatusVerdict[] {
  const run = spawnSync(binary, [], { input: JSON.stringify(objects), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`kstatus failed (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as KstatusVerdict[];
}
