/**
 * Files that ship with this package (package.json, samples/), found from wherever its code runs: the
 * TypeScript sources, tsc's dist/ tree or the one-file bundle dist/scoby.mjs. Each puts this module at
 * another depth below the package root, so a path relative to its own URL fits only one of them; the
 * nearest folder above it with a package.json is the package root in all three (Node.js finds a
 * module's package the same way).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRootAbove(file: string): string {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no package.json above ${file}`);
  }
}

const PACKAGE_ROOT = packageRootAbove(fileURLToPath(import.meta.url));

/** The path of `relative` (e.g. `samples/`) under the package root. */
export function packageFile(relative: string): string {
  return join(PACKAGE_ROOT, relative);
}
