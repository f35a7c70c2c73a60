import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClusterDomain } from '../src/index.ts';

describe('loadClusterDomain', () => {
  let directory = '';
  let resolvConfPath = '';

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'address-resolv-'));
    resolvConfPath = join(directory, 'resolv.conf');
    await writeFile(
      resolvConfPath,
      'nameserver 10.96.0.10\nsearch shop.svc.fixture.local svc.fixture.local\n',
    );
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads CLUSTER_DOMAIN from the environment first', async () => {
    expect(await loadClusterDomain({ environment: { CLUSTER_DOMAIN: 'env.local' }, resolvConfPath })).toBe(
      'env.local',
    );
  });

  it('falls back to the resolv.conf file', async () => {
    expect(await loadClusterDomain({ environment: {}, resolvConfPath })).toBe('fixture.local');
  });

  it('falls back to cluster.local when the file cannot be read', async () => {
    const missing = join(directory, 'absent.conf');
    expect(await loadClusterDomain({ environment: {}, resolvConfPath: missing })).toBe('cluster.local');
  });
});
