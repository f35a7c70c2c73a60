#!/usr/bin/env node
/**
 * `npm run release -- [--dry-run] [--version X.Y.Z] [--since <ref>] [--work-copy <folder>]`
 * (docs/operations/release.md). In order:
 *   1. every workspace package, its `@scoby/*` dependencies and package-lock.json at the release's
 *      version (lockstep: scripts/release-plan.mjs says why), and the files naming the controller's
 *      version (VERSION_REFERENCES);
 *   2. the install artefacts regenerated (`npm run generate -w @scoby/install`: the chart's `version`
 *      and `appVersion` are the controller's);
 *   3. a section of CHANGELOG.md from the commit subjects since `--since`, by default the last tag
 *      `v*` (all commits when there is none);
 *   4. the packages packed (scripts/pack-packages.mjs) and published with `npm publish` to the
 *      registry npm's own configuration names for `@scoby`, then read back with `npm view`: each at
 *      the version, its `@scoby/*` dependencies at the version;
 *   5. without --dry-run: a commit of the edits and the tag `v<version>`.
 *
 * --dry-run does 1 to 4 in a temporary copy of the work tree (the files git tracks or would track,
 * node_modules hard-linked), so the work tree is left as it was; the copy is removed afterwards unless
 * --work-copy names where to make it. A dry run never publishes to the public registry: when npm's
 * configuration sends `@scoby` to registry.npmjs.org, it starts a local registry (Verdaccio) and
 * publishes there.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { parseArgs, promisify } from 'node:util';
import { startLocalRegistry } from './local-registry.mjs';
import {
  VERSION_REFERENCES,
  assertVersion,
  changelogSection,
  changelogWith,
  lockstepLock,
  lockstepManifest,
  nextPatch,
  withVersionReferences,
} from './release-plan.mjs';

// npm publish and npm view run asynchronously: a local registry answers from this process's event loop.
const execFileAsync = promisify(execFile);
const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';
const root = resolve(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: {
    'dry-run': { type: 'boolean', default: false },
    version: { type: 'string' },
    since: { type: 'string' },
    'work-copy': { type: 'string' },
  },
});
const dryRun = options['dry-run'];

const say = (line) => process.stdout.write(`release: ${line}\n`);
const git = (args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** Tracked and untracked-but-not-ignored files copied; every node_modules folder hard-linked. */
function copyWorkTree(destination) {
  const files = git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'])
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the work tree, not yet in the index
    mkdirSync(dirname(join(destination, file)), { recursive: true });
    cpSync(join(root, file), join(destination, file), { verbatimSymlinks: true });
  }
  const workspaceFolders = readJson(join(root, 'package.json')).workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2))).map((name) => join(pattern.slice(0, -2), name))
      : [pattern],
  );
  for (const folder of ['.', ...workspaceFolders]) {
    if (!existsSync(join(root, folder, 'node_modules'))) continue;
    mkdirSync(join(destination, folder), { recursive: true });
    // Hard links: nothing of the release writes into node_modules (its caches are left out). A copy
    // where the temporary folder is on another file system, which hard links cannot cross.
    const [from, to] = [join(root, folder, 'node_modules'), join(destination, folder, 'node_modules')];
    try {
      execFileSync('cp', ['-al', from, to], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch {
      rmSync(to, { recursive: true, force: true });
      execFileSync('cp', ['-a', from, to]);
    }
    rmSync(join(destination, folder, 'node_modules/.cache'), { recursive: true, force: true });
  }
}

/** The registry `npm` publishes `@scoby` packages to, in environment `env`. */
function scobyRegistry(cwd, env) {
  const configured = execFileSync('npm', ['config', 'get', '@scoby:registry'], {
    cwd,
    env,
    encoding: 'utf8',
  }).trim();
  if (configured !== 'undefined' && configured !== '') return configured;
  return execFileSync('npm', ['config', 'get', 'registry'], { cwd, env, encoding: 'utf8' }).trim();
}

function setVersions(tree, version) {
  const workspaces = JSON.parse(
    execFileSync('npm', ['query', '.workspace', '--json'], { cwd: tree, encoding: 'utf8' }),
  );
  const previous = readJson(join(tree, 'apps/controller/package.json')).version;
  for (const manifestPath of [
    join(tree, 'package.json'),
    ...workspaces.map(({ path }) => join(path, 'package.json')),
  ])
    writeJson(manifestPath, lockstepManifest(readJson(manifestPath), version));
  const lockPath = join(tree, 'package-lock.json');
  writeJson(
    lockPath,
    lockstepLock(
      readJson(lockPath),
      version,
      workspaces.map(({ path }) => relative(tree, path)),
    ),
  );
  for (const path of Object.keys(VERSION_REFERENCES))
    writeFileSync(
      join(tree, path),
      withVersionReferences(path, readFileSync(join(tree, path), 'utf8'), previous, version),
    );
  say(`${workspaces.length} workspace packages and package-lock.json at ${version} (was ${previous})`);
  return workspaces;
}

function writeChangelog(tree, version) {
  const since =
    options.since ??
    (git(['tag', '--list', 'v*', '--sort=-v:refname']).split('\n').find(Boolean) || undefined);
  const log = git([
    'log',
    '--no-merges',
    '--format=%h%x09%s',
    since === undefined ? 'HEAD' : `${since}..HEAD`,
  ]);
  const commits =
    log === ''
      ? []
      : log.split('\n').map((line) => {
          const [hash, ...subject] = line.split('\t');
          return { hash, subject: subject.join('\t') };
        });
  const date = new Date().toISOString().slice(0, 10);
  const path = join(tree, 'CHANGELOG.md');
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  writeFileSync(path, changelogWith(existing, changelogSection({ version, date, since, commits })));
  say(`CHANGELOG.md: ${version} with ${commits.length} commits since ${since ?? 'the first commit'}`);
}

async function publish(tree, tarballs, version, env) {
  // npm refuses a prerelease under its default dist-tag `latest`, which users install by default.
  const distTag = version.includes('-') ? 'next' : 'latest';
  for (const tarball of tarballs)
    await execFileAsync(
      'npm',
      ['publish', tarball, '--access', 'public', '--tag', distTag, '--ignore-scripts'],
      {
        cwd: tree,
        env,
      },
    );
}

/** `npm view` of each package at `version`: fails unless it and its `@scoby/*` dependencies are there. */
async function verifyPublished(tree, names, version, env) {
  for (const name of names) {
    const { stdout } = await execFileAsync(
      'npm',
      ['view', `${name}@${version}`, 'name', 'version', 'dependencies', '--json'],
      { cwd: tree, env },
    );
    const view = JSON.parse(stdout);
    const internal = Object.entries(view.dependencies ?? {}).filter(([dependency]) =>
      dependency.startsWith('@scoby/'),
    );
    const wrong = internal.filter(([, range]) => range !== version);
    if (view.version !== version || wrong.length > 0)
      throw new Error(
        `npm view ${name}@${version}: version ${view.version}, dependencies ${JSON.stringify(wrong)}`,
      );
    say(`npm view ${name}@${view.version}: ${internal.length} @scoby dependencies at ${version}`);
  }
}

async function main() {
  const current = readJson(join(root, 'apps/controller/package.json')).version;
  const version = options.version ?? nextPatch(current);
  assertVersion(version);
  if (!dryRun && git(['status', '--porcelain']) !== '')
    throw new Error('the work tree has changes; commit or stash them first');

  const scratch = mkdtempSync(join(tmpdir(), 'scoby-release-'));
  const tree = dryRun ? resolve(options['work-copy'] ?? join(scratch, 'work-tree')) : root;
  let localRegistry;
  try {
    if (dryRun) {
      copyWorkTree(tree);
      say(`dry run in a copy of the work tree: ${tree}`);
    }
    const workspaces = setVersions(tree, version);
    execFileSync('npm', ['run', 'generate', '-w', '@scoby/install'], {
      cwd: tree,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const chart = readFileSync(join(tree, 'deploy/helm/scoby/Chart.yaml'), 'utf8');
    say(`chart: ${chart.match(/^version: .*$/m)[0]}, ${chart.match(/^appVersion: .*$/m)[0]}`);
    writeChangelog(tree, version);

    const tarballs = execFileSync(
      process.execPath,
      [join(tree, 'scripts/pack-packages.mjs'), join(scratch, 'packages')],
      {
        cwd: tree,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
      .split('\n')
      .filter(Boolean);
    say(`${tarballs.length} packages packed`);

    // npm's own configuration as the maintainer's shell gives it (~/.npmrc, npm_config_* such as an otp).
    let env = process.env;
    let registry = scobyRegistry(tree, env);
    if (dryRun && registry.replace(/\/?$/, '/') === PUBLIC_REGISTRY) {
      localRegistry = await startLocalRegistry(join(scratch, 'registry'));
      env = localRegistry.env;
      registry = localRegistry.url;
      say(
        `npm's configuration sends @scoby to ${PUBLIC_REGISTRY}; the dry run publishes to a local registry instead`,
      );
    }
    say(`publishing to ${registry}`);
    await publish(tree, tarballs, version, env);
    const published = workspaces.filter((workspace) => workspace.private !== true).map(({ name }) => name);
    await verifyPublished(tree, published, version, env);

    if (dryRun) {
      say(`dry run of ${version} done; the work tree is as it was`);
    } else {
      git(['add', '--all']);
      git([
        'commit',
        '--quiet',
        '-m',
        `Release ${version}: every package at ${version}, the chart's version and appVersion, CHANGELOG.md`,
      ]);
      git(['tag', '--annotate', `v${version}`, '-m', `Scoby ${version}`]);
      say(`committed and tagged v${version}; push both: git push origin HEAD v${version}`);
    }
  } finally {
    await localRegistry?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
