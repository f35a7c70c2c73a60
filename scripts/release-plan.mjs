/**
 * The release's edits to the repository's files, as pure functions of their text (scripts/release.mjs
 * does the reading, writing, packing and publishing).
 *
 * Versions move in lockstep: every workspace package takes the release's version, and every `@scoby/*`
 * dependency is pinned to exactly that version. The packages are built, tested and packed together
 * from one commit, and a user installs them together (`@scoby/controller` needs ten of the others);
 * one version says which of them were tested together. Per-package versions (changesets) would let a
 * user combine packages that never ran together, and ask every change for a hand-written entry.
 */

/** The semantic version the release takes when none is given: the patch after `current`. */
export function nextPatch(current) {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(current);
  if (!match) throw new Error(`cannot bump ${JSON.stringify(current)}: give --version`);
  return `${match[1]}.${match[2]}.${Number(match[3]) + 1}`;
}

export function assertVersion(version) {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version))
    throw new Error(`${JSON.stringify(version)} is not a semantic version (1.2.3 or 1.2.3-rc.1)`);
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'];

function pinned(dependencies, version) {
  if (dependencies === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(dependencies).map(([name, range]) => [name, name.startsWith('@scoby/') ? version : range]),
  );
}

/** A package.json (or a package-lock entry) at `version`, its `@scoby/*` dependencies pinned to it. */
export function lockstepManifest(manifest, version) {
  const result = { ...manifest, version };
  for (const field of DEPENDENCY_FIELDS)
    if (manifest[field] !== undefined) result[field] = pinned(manifest[field], version);
  return result;
}

/**
 * package-lock.json after the same edit: the root and every workspace entry (`packages/…`, `apps/…`,
 * the keys that are not under node_modules) as lockstepManifest makes them, so that `npm ci` accepts
 * the lock without a new resolution.
 */
export function lockstepLock(lock, version, workspacePaths) {
  const workspaces = new Set(['', ...workspacePaths]);
  const packages = Object.fromEntries(
    Object.entries(lock.packages).map(([path, entry]) => [
      path,
      workspaces.has(path) ? lockstepManifest(entry, version) : entry,
    ]),
  );
  return { ...lock, version, packages };
}

/**
 * The files outside package.json that name the controller's version, and the text that names it. The
 * install artefacts generated from them (the chart's Chart.yaml and values, deploy/release/scoby.yaml)
 * follow from `npm run generate -w @scoby/install`, which refuses a deployment whose image tag is not
 * the controller's version.
 */
export const VERSION_REFERENCES = {
  Dockerfile: [(v) => `scoby-controller:${v}`, (v) => `ARG VERSION=${v}`],
  'deploy/20-deployment.yaml': [(v) => `scoby-controller:${v}`],
  'deploy/kustomize/overlays/watch-namespaces/kustomization.yaml': [(v) => `newTag: ${v}`],
};

/** `text` of `path` (a key of VERSION_REFERENCES) naming `version` where it named `previous`. */
export function withVersionReferences(path, text, previous, version) {
  let result = text;
  for (const reference of VERSION_REFERENCES[path]) {
    const before = reference(previous);
    if (!result.includes(before)) throw new Error(`${path} does not contain ${JSON.stringify(before)}`);
    result = result.replaceAll(before, reference(version));
  }
  return result;
}

const CHANGELOG_HEADING = '# Changelog';
const CHANGELOG_INTRO =
  'One section a release, newest first: the subject line of every commit since the previous release ' +
  '(merges left out), written by `npm run release` (docs/operations/release.md).';

/**
 * The changelog's section of a release: the subject of each commit since `since` (newest first, as
 * `git log` lists them), with its short hash. Commit subjects here already say what changed and why
 * (CONTRIBUTING.md), so they are the entries; a maintainer may edit the section before the tag.
 */
export function changelogSection({ version, date, since, commits }) {
  const origin = since === undefined ? 'the first commit' : `\`${since}\``;
  const entries =
    commits.length === 0 ? ['- No changes.'] : commits.map(({ hash, subject }) => `- ${subject} (${hash})`);
  return [`## ${version} (${date})`, '', `Since ${origin}:`, '', ...entries, ''].join('\n');
}

/** CHANGELOG.md with `section` above the previous releases (`existing` undefined: a new file). */
export function changelogWith(existing, section) {
  if (existing === undefined) return [CHANGELOG_HEADING, '', CHANGELOG_INTRO, '', section].join('\n');
  const firstRelease = existing.search(/^## /m);
  if (firstRelease === -1) return `${existing.trimEnd()}\n\n${section}`;
  return `${existing.slice(0, firstRelease)}${section}\n${existing.slice(firstRelease)}`;
}
