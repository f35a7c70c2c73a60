/**
 * A plugin and a hook as a user writes them from docs/plugins.md and docs/hooks.md: the guides' code
 * (docs/examples, which the guides show verbatim) copied into the empty project, compiled there with
 * tsc under `strict` against the installed packages' declarations, and run with plain node.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { REPOSITORY, node, type Finished } from './consumer.ts';

export const GUIDE_EXAMPLES = join(REPOSITORY, 'docs/examples');
/** The repository's `scoby`: it resolves the `@scoby/source` condition, also in a user's packages. */
export const REPOSITORY_SCOBY = join(REPOSITORY, 'apps/controller/bin/scoby.js');
/** The `scoby` the packed @scoby/controller installs. */
export const INSTALLED_SCOBY = 'node_modules/.bin/scoby';

/** Copies docs/examples into `<consumer>/src` and compiles it to `<consumer>/dist`. */
export async function compileGuideExamples(consumer: string): Promise<Finished> {
  await cp(GUIDE_EXAMPLES, join(consumer, 'src'), {
    recursive: true,
    filter: (source) => !source.endsWith('tsconfig.json'),
  });
  const tsc = join(REPOSITORY, 'node_modules/typescript/bin/tsc');
  return node(
    [
      tsc,
      ...['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'],
      ...['--typeRoots', join(REPOSITORY, 'node_modules/@types'), '--types', 'node'],
      ...['--rootDir', 'src', '--outDir', 'dist'],
      'src/hooks/handlers.ts',
      'src/hooks/server.ts',
      'src/hooks/check.ts',
      'src/hooks/module.ts',
      'src/plugins/worker.ts',
    ],
    consumer,
  );
}
