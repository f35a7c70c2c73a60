/**
 * The package.json a workspace package is published with: the workspace's own without what only the
 * repository uses. The `@scoby/source` export condition points at TypeScript sources that are not
 * packed; `scripts` run the repository's tools on files that are not packed either; `nx` configures
 * the workspace; `devDependencies` name workspace-only packages (some never published). Everything
 * else (exports' `types` and `default`, `bin`, `files`, dependencies, engines) is kept as written.
 *
 * @param {Record<string, unknown>} manifest
 * @returns {Record<string, unknown>}
 */
export function publishedManifest(manifest) {
  const { scripts: _scripts, nx: _nx, devDependencies: _devDependencies, ...published } = manifest;
  if (published.exports !== undefined) published.exports = withoutSourceCondition(published.exports);
  return published;
}

/** @param {unknown} exports */
function withoutSourceCondition(exports) {
  if (typeof exports !== 'object' || exports === null || Array.isArray(exports)) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== '@scoby/source')
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}
