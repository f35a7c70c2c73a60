/**
 * A local npm registry (Verdaccio, in this process) on a free loopback port with its storage in a
 * given folder, and an npm user config that sends the `@scoby` scope there with a publisher's token.
 * npm reaches it only through that configuration (`npm_config_userconfig`); every other package comes
 * from npm's usual registry (and its cache), as it does for a user once `@scoby` is on npmjs.com.
 * The packaging test publishes the packed packages here, and the release's dry run does when npm's
 * configuration names no registry of its own for `@scoby`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { runServer } from 'verdaccio';

const PUBLISHER = { name: 'scoby-maintainer', password: 'local-registry-only' };

/**
 * The environment of a user's shell: `npm run` and nx export `npm_*` variables (the workspace's
 * package, its config) that would otherwise steer the npm started here.
 */
export function userEnvironment(userconfig) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'),
  );
  return { ...env, npm_config_userconfig: userconfig };
}

export async function startLocalRegistry(folder) {
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
  const server = await runServer(configFile);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  const stop = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  try {
    // The registry's own user creation (what `npm adduser` does), which answers with a token.
    const created = await globalThis.fetch(`${url}-/user/org.couchdb.user:${PUBLISHER.name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: PUBLISHER.name, password: PUBLISHER.password }),
    });
    const { token } = await created.json();
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
    return { url, userconfig, env: userEnvironment(userconfig), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
