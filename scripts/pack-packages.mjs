#!/usr/bin/env node
/**
 * Builds the workspace packages and packs the publishable ones (those not `private`) into a folder,
 * the tarballs to publish (`npm publish <tarball>`): `node scripts/pack-packages.mjs <folder>`. Prints the
 * tarballs' paths, one a line. The image (Dockerfile) and the pack-and-install test both start here.
 *
 * npm packs a LICENSE only from beside a package's package.json, so the repository's LICENSE is
 * copied there for the duration of the pack (the copies are git-ignored and removed afterwards).
 *
 * A published package.json carries only what the package ships. In the workspace each package exports
 * its TypeScript sources under the `@scoby/source` condition and names its development scripts and
 * Nx settings; none of those files ship, and a program that resolves with that condition (the
 * repository's `bin/scoby.js` loading a user's plugin) would follow the condition into the installed
 * package and find nothing. So each package is packed once by npm, unpacked, its package.json stripped
 * of the workspace-only parts (publishedManifest), its README's links to repository files made
 * absolute (publishedReadme: the files are not in the package), and packed again from there.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { publishedManifest } from './published-manifest.mjs';
import { publishedReadme } from './published-readme.mjs';

const root = resolve(import.meta.dirname, '..');
const destination = process.argv[2];
if (!destination) {
  console.error('usage: node scripts/pack-packages.mjs <folder>');
  process.exit(2);
}

const npm = (args, cwd = root) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

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
const staging = mkdtempSync(join(tmpdir(), 'scoby-pack-'));
try {
  for (const license of licenses) copyFileSync(join(root, 'LICENSE'), license);
  const packed = JSON.parse(
    npm([
      'pack',
      '--json',
      '--pack-destination',
      staging,
      ...publishable.flatMap((workspace) => ['-w', workspace.name]),
    ]),
  );
  for (const { filename } of packed) {
    const unpacked = join(staging, filename.replace(/\.tgz$/, ''));
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(staging, filename), '-C', unpacked]);
    const manifest = join(unpacked, 'package/package.json');
    const published = publishedManifest(JSON.parse(readFileSync(manifest, 'utf8')));
    writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
    const readme = join(unpacked, 'package/README.md');
    // The image's build context leaves Markdown out (.dockerignore): a package without its README
    // there is packed as it is.
    if (existsSync(readme))
      writeFileSync(readme, publishedReadme(readFileSync(readme, 'utf8'), published.repository, 'main'));
    const [repacked] = JSON.parse(
      npm(
        ['pack', '--json', '--ignore-scripts', '--pack-destination', resolve(destination), './package'],
        unpacked,
      ),
    );
    console.log(join(resolve(destination), repacked.filename));
  }
} finally {
  for (const license of licenses) rmSync(license, { force: true });
  rmSync(staging, { recursive: true, force: true });
}
