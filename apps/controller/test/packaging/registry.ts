/**
 * The local npm registry of scripts/local-registry.mjs, and the packed packages published to it with
 * `npm publish`, as a maintainer publishes them.
 */
import {
  startLocalRegistry as startRegistry,
  type StartedRegistry,
} from '../../../../scripts/local-registry.mjs';
import { run, type Finished } from './consumer.ts';

export interface LocalRegistry extends StartedRegistry {
  /** The registry's document of a package (all versions, README), as `npm view` reads it. */
  packument(name: string): Promise<Record<string, unknown>>;
}

export async function startLocalRegistry(folder: string): Promise<LocalRegistry> {
  const registry = await startRegistry(folder);
  return {
    ...registry,
    packument: async (name) => {
      const answer = await fetch(`${registry.url}${name.replace('/', '%2f')}`);
      if (!answer.ok) throw new Error(`GET ${name}: HTTP ${answer.status}`);
      return (await answer.json()) as Record<string, unknown>;
    },
  };
}

/** `npm publish <tarball> --registry <url>` for each tarball, as the release does. */
export async function publishAll(
  registry: LocalRegistry,
  tarballs: string[],
  cwd: string,
): Promise<Finished[]> {
  return Promise.all(
    tarballs.map((tarball) =>
      run('npm', ['publish', tarball, '--registry', registry.url, '--ignore-scripts'], cwd, registry.env),
    ),
  );
}
