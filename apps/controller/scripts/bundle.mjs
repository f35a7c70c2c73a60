#!/usr/bin/env node
/**
 * Bundles the `scoby` program into one ES module with esbuild: dist/scoby.mjs, what an installed
 * package (bin/scoby.js) and the image (the Dockerfile's ENTRYPOINT) run. Why a bundle: the index of
 * @kubernetes/client-node imports all of its ~2,500 generated models and APIs, about 75 MiB of RSS
 * before the controller does anything; a bundle keeps only the modules the program uses. tsc's dist/
 * stays the package's library (`import { startProcess } from '@scoby/controller'`).
 *
 * `node scripts/bundle.mjs bench` bundles the bench's controller child the same way instead
 * (bench/dist/controller-process.mjs), so the bench measures the code the image runs.
 * `--outdir <folder>` writes elsewhere and `--metafile <file>` writes esbuild's account of the
 * modules it kept (test/cli/bundle.test.ts reads them).
 *
 * The commands' code is loaded when a command is chosen (`import()` in src/cli/program.ts); the
 * bundle keeps that split: each command's code is a chunk of its own next to the entry
 * (scoby-chunks/), so `scoby run` neither parses `render`'s code nor `--help` the controller's. In
 * one file, esbuild would wrap every module a command reaches for lazy evaluation, and a wrapped
 * module's `export *` keeps all it re-exports: client-node's index, all of it.
 *
 * The embedded clusters (@scoby/in-memory-apiserver, @scoby/kube-control-plane) stay outside: they
 * read data files next to their own modules and serve only `scoby run --embedded`, which imports them
 * when asked. The workspace packages are bundled from their TypeScript sources (`@scoby/source`).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const PACKAGE_ROOT = new URL('..', import.meta.url).pathname;

const BUNDLES = {
  program: { entry: 'src/cli/main.ts', outdir: 'dist', name: 'scoby' },
  bench: { entry: 'bench/controller-process.ts', outdir: 'bench/dist', name: 'controller-process' },
};
const CHUNKS = 'scoby-chunks';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { outdir: { type: 'string' }, metafile: { type: 'string' } },
});
const which = positionals[0] ?? 'program';
const bundle = BUNDLES[which];
if (bundle === undefined) {
  console.error(
    `usage: node scripts/bundle.mjs [${Object.keys(BUNDLES).join('|')}] [--outdir <folder>] [--metafile <file>]`,
  );
  process.exit(2);
}

/**
 * client-node's modules have no side effects when they are evaluated, but its package.json does not
 * say so (`sideEffects`), so esbuild kept every module its index reaches: all generated models and
 * APIs, ObjectSerializer's tables, the WebSocket, exec and port-forward code (about 1 MB, 12.5 MiB
 * of RSS at every start). Said here, the bundle keeps the modules whose exports the program uses:
 * KubeConfig with its authenticators (exec, OIDC, token files, the cloud providers'), the proxy
 * agents, and the request configuration the generic client builds on.
 */
const CLIENT_NODE = /[\\/]node_modules[\\/]@kubernetes[\\/]client-node[\\/]/;

function declareSideEffectFree(files) {
  return {
    name: 'declare-side-effect-free',
    setup(plugin) {
      plugin.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'resolving') return undefined;
        const resolved = await plugin.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'resolving',
        });
        if (resolved.errors.length > 0 || !files.test(resolved.path)) return undefined;
        return { ...resolved, sideEffects: false };
      });
    },
  };
}

const outdir = resolve(PACKAGE_ROOT, values.outdir ?? bundle.outdir);
// Chunks of an earlier build are named by their content: they would stay beside the new ones.
rmSync(join(outdir, CHUNKS), { recursive: true, force: true });
const result = await build({
  absWorkingDir: PACKAGE_ROOT,
  entryPoints: { [bundle.name]: bundle.entry },
  outdir,
  splitting: true,
  chunkNames: `${CHUNKS}/[name]-[hash]`,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@scoby/source'],
  external: ['@scoby/in-memory-apiserver', '@scoby/kube-control-plane'],
  plugins: [declareSideEffectFree(CLIENT_NODE)],
  // node-fetch 2 (client-node's) imports whatwg-url but uses Node's URL (scripts/whatwg-url.cjs).
  alias: { 'whatwg-url': './scripts/whatwg-url.cjs' },
  // CommonJS dependencies (prom-client, pino, …) call require() for Node.js modules.
  banner: {
    js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
  },
  // Error and class names appear in log lines (pino's `type`); esbuild would rename clashing ones.
  keepNames: true,
  // Less source for V8 to hold and parse at every start (about 1.7 MiB of RSS); names are kept, and
  // the source map gives stack traces their TypeScript lines (--enable-source-maps).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  metafile: values.metafile !== undefined,
  logLevel: 'warning',
});
if (values.metafile !== undefined) writeFileSync(values.metafile, JSON.stringify(result.metafile));
