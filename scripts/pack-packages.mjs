#!/usr/bin/env node
/**
 * Builds the workspace packages and packs the publishable ones (those not `private`) into a folder,
 * exactly as `npm publish` would upload them: `node scripts/pack-packages.mjs <folder>`. Prints the
 * tarballs' paths, one a line. The image (Dockerfile) and the pack-and-install test both start here.
 *
 * npm packs a LICENSE only from beside a package's package.json, so the repository's LICENSE is
 * copied there for the duration of the pack (the copies are git-ignored and removed afterwards).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const destination = process.argv[2];
if (!destination) {
  console.error('usage: node scripts/pack-packages.mjs <folder>');
  process.exit(2);
}

const npm = (args) =>
  execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
// The `scoby` program the controller package runs (dist/scoby.mjs), as `npm run build` makes it.
execFileSync(process.execPath, [join(root, 'apps/controller/scripts/bundle.mjs')], {
  cwd: root,
  stdio: 'inherit',
});

/** @type {{name: string, private?: boolean, path: string}[]} */
const workspaces = JSON.parse(npm(['query', '.workspace', '--json']));
const publishable = workspaces.filter((workspace) => workspace.private !== true);
const licenses = publishable.map((workspace) => join(workspace.path, 'LICENSE'));
mkdirSync(destination, { recursive: true });
try {
  for (const license of licenses) copyFileSync(join(root, 'LICENSE'), license);
  const packed = JSON.parse(
    npm([
      'pack',
      '--json',
      '--pack-destination',
      resolve(destination),
      ...publishable.flatMap((workspace) => ['-w', workspace.name]),
    ]),
  );
  for (const { filename } of packed) console.log(join(resolve(destination), filename));
} finally {
  for (const license of licenses) rmSync(license, { force: true });
}
