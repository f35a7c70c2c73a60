/** Reads the install sources (paths.ts) as text: the generators keep their comments. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT, SOURCE_FILES } from './paths.ts';

export type InstallSources = { [name in keyof typeof SOURCE_FILES]: string };

export function readInstallSources(root: string = REPOSITORY_ROOT): InstallSources {
  const entries = Object.entries(SOURCE_FILES).map(([name, path]) => [
    name,
    readFileSync(join(root, path), 'utf8'),
  ]);
  return Object.fromEntries(entries) as InstallSources;
}
