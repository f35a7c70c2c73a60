import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OCI_REGISTRY, locateOciRegistry, ociRegistryCacheFolder } from '../../src/oci-registry.ts';

describe('the OCI registry binary', () => {
  it('is CNCF Distribution v3.1.2, in a cache folder of its own at that version', async () => {
    expect(OCI_REGISTRY).toEqual({ module: 'github.com/distribution/distribution/v3', version: 'v3.1.2' });
    const cache = await mkdtemp(join(tmpdir(), 'cache-'));
    const binary = join(cache, 'oci-registry', 'v3.1.2', 'registry');
    expect(locateOciRegistry({ SCOBY_CACHE_DIR: cache })).toEqual({
      ok: false,
      message: `the OCI registry is not built (${binary} is missing): run \`npm run oci-registry\``,
    });
    await mkdir(ociRegistryCacheFolder({ SCOBY_CACHE_DIR: cache }), { recursive: true });
    await writeFile(binary, '');
    expect(locateOciRegistry({ SCOBY_CACHE_DIR: cache })).toEqual({ ok: true, path: binary });
  });
});
