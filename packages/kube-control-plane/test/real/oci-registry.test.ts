/**
 * The OCI registry as `npm run oci-registry` built it: it says its version, and an image pushed to it
 * over the distribution API (two blobs, then the manifest) is served under the digest of the manifest's
 * bytes, the digest a chart pins with `image.digest`.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateOciRegistry } from '../../src/oci-registry.ts';

const located = locateOciRegistry();
const sha256 = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

let folder: string;
let registry: ChildProcess;
let base: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function pushBlob(repository: string, bytes: Buffer): Promise<string> {
  const digest = sha256(bytes);
  const started = await fetch(`${base}/v2/${repository}/blobs/uploads/`, { method: 'POST' });
  expect(started.status).toBe(202);
  const location = new URL(started.headers.get('location')!, base);
  location.searchParams.set('digest', digest);
  const finished = await fetch(location, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  expect(finished.status).toBe(201);
  return digest;
}

beforeAll(async () => {
  if (!located.ok) throw new Error(located.message);
  folder = await mkdtemp(join(tmpdir(), 'oci-registry-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = join(folder, 'config.yml');
  await writeFile(
    config,
    [
      'version: 0.1',
      'log: {level: error}',
      `storage: {filesystem: {rootdirectory: ${JSON.stringify(join(folder, 'storage'))}}}`,
      `http: {addr: "127.0.0.1:${port}"}`,
      '',
    ].join('\n'),
  );
  registry = spawn(located.path, ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  registry.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let attempt = 0; ; attempt++) {
    const answer = await fetch(`${base}/v2/`).catch(() => undefined);
    if (answer?.status === 200) break;
    if (attempt === 100 || registry.exitCode !== null)
      throw new Error(`the registry did not answer on ${base}/v2/:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  registry?.kill('SIGTERM');
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

describe('the OCI registry built from github.com/distribution/distribution/v3', () => {
  it('is of the pinned version', () => {
    if (!located.ok) throw new Error(located.message);
    // `<its own path> <module> <version>`: without the version stamped, `v3.1.2+unknown`.
    expect(execFileSync(located.path, ['--version'], { encoding: 'utf8' }).trim()).toBe(
      `${located.path} github.com/distribution/distribution/v3 v3.1.2`,
    );
  });

  it("serves a pushed image's manifest under the digest of its bytes", async () => {
    const configBytes = Buffer.from(
      JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] } }),
    );
    const layerBytes = Buffer.from('a layer of the test');
    const configDigest = await pushBlob('scoby-controller', configBytes);
    const layerDigest = await pushBlob('scoby-controller', layerBytes);
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: {
          mediaType: 'application/vnd.oci.image.config.v1+json',
          digest: configDigest,
          size: configBytes.length,
        },
        layers: [
          {
            mediaType: 'application/vnd.oci.image.layer.v1.tar',
            digest: layerDigest,
            size: layerBytes.length,
          },
        ],
      }),
    );
    const put = await fetch(`${base}/v2/scoby-controller/manifests/0.2.0`, {
      method: 'PUT',
      headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
      body: manifest,
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('docker-content-digest')).toBe(sha256(manifest));
    const byTag = await fetch(`${base}/v2/scoby-controller/manifests/0.2.0`, {
      method: 'HEAD',
      headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
    });
    expect(byTag.headers.get('docker-content-digest')).toBe(sha256(manifest));
    const byDigest = await fetch(`${base}/v2/scoby-controller/manifests/${sha256(manifest)}`, {
      headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
    });
    expect(Buffer.from(await byDigest.arrayBuffer())).toEqual(manifest);
  });
});
