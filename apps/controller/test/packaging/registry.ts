/**
 * A local npm registry (Verdaccio, in this process) on a free loopback port with its storage in a
 * folder of the test, and the packed packages published to it with `npm publish`, as a maintainer
 * publishes them. npm reaches it only through its own configuration: a user config (`.npmrc`) that
 * sends the `@scoby` scope there, with the publisher's token. Every other package comes from npm's
 * usual registry (and its cache), as it does for a user once `@scoby` is on npmjs.com.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runServer } from 'verdaccio';
import { run, type Finished } from './consumer.ts';

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The npm user config that sends `@scoby` here with the publisher's token. */
  userconfig: string;
  /** The environment npm runs in: this test's, without npm's script variables, with `userconfig`. */
  env: NodeJS.ProcessEnv;
  /** The registry's document of a package (all versions, README), as `npm view` reads it. */
  packument(name: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const PUBLISHER = { name: 'scoby-maintainer', password: 'local-registry-only' };

/**
 * The environment of a user's shell: `npm run` and nx export `npm_*` variables (the workspace's
 * package, its config) that would otherwise steer the npm a test starts.
 */
export function userEnvironment(userconfig: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'),
  );
  return { ...env, npm_config_userconfig: userconfig };
}

export async function startLocalRegistry(folder: string): Promise<LocalRegistry> {
  await mkdir(join(folder, 'storage'), { recursive: true });
  const configFile = join(folder, 'config.yaml');
  await writeFile(
    configFile,
    [
      `storage: ${JSON.stringify(join(folder, 'storage'))}`,
      'auth:',
      `  htpasswd: {file: ${JSON.stringify(join(folder, 'htpasswd'))}, max_users: 1}`,
      // No uplink: the registry serves what is published here and nothing else.
      'uplinks: {}',
      'packages:',
      "  '@scoby/*': {access: $all, publish: $authenticated, unpublish: $authenticated}",
      "  '**': {access: $all}",
      'web: {enable: false}',
      'log: {type: stdout, format: json, level: fatal}',
      '',
    ].join('\n'),
  );
  const server = (await runServer(configFile)) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  try {
    // The registry's own user creation (what `npm adduser` does), which answers with a token.
    const created = await fetch(`${url}-/user/org.couchdb.user:${PUBLISHER.name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: PUBLISHER.name, password: PUBLISHER.password }),
    });
    const { token } = (await created.json()) as { token?: string };
    if (created.status !== 201 || token === undefined)
      throw new Error(`the local registry did not create its user: HTTP ${created.status}`);
    const userconfig = join(folder, 'npmrc');
    const hostPath = url.replace(/^http:/, '');
    await writeFile(
      userconfig,
      [
        `@scoby:registry=${url}`,
        `${hostPath}:_authToken=${token}`,
        // Third-party packages from npm's cache when it has them, as the Dockerfile's install does.
        'prefer-offline=true',
        'audit=false',
        'fund=false',
        'update-notifier=false',
        'loglevel=error',
        '',
      ].join('\n'),
    );
    return {
      url,
      userconfig,
      env: userEnvironment(userconfig),
      packument: async (name) => {
        const answer = await fetch(`${url}${name.replace('/', '%2f')}`);
        if (!answer.ok) throw new Error(`GET ${name}: HTTP ${answer.status}`);
        return (await answer.json()) as Record<string, unknown>;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
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
