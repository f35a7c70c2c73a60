#!/usr/bin/env node
/**
 * Bundles the `scoby` program into one ES module with esbuild: dist/scoby.mjs, what an installed
 * package (bin/scoby.js) and the image (the Dockerfile's ENTRYPOINT) run. Why a bundle: the index of
 * @kubernetes/client-node imports all of its ~2,500 generated models and APIs, about 75 MiB of RSS
 * before the controller does anything; a bundle keeps only the modules the program uses. tsc's dist/
 * stays the package's library (`import { startController } from '@scoby/controller'`).
 *
 * `node scripts/bundle.mjs bench` bundles the bench's controller child the same way instead
 * (bench/dist/controller-process.mjs), so the bench measures the code the image runs.
 *
 * The embedded clusters (@scoby/in-memory-apiserver, @scoby/kube-control-plane) stay outside: they
 * read data files next to their own modules and serve only `scoby run --embedded`, which imports them
 * when asked. The workspace packages are bundled from their TypeScript sources (`@scoby/source`).
 */
import { build } from 'esbuild';

const PACKAGE_ROOT = new URL('..', import.meta.url).pathname;

const BUNDLES = {
  program: { entry: 'src/cli/main.ts', outfile: 'dist/scoby.mjs' },
  bench: { entry: 'bench/controller-process.ts', outfile: 'bench/dist/controller-process.mjs' },
};

const which = process.argv[2] ?? 'program';
const bundle = BUNDLES[which];
if (bundle === undefined) {
  console.error(`usage: node scripts/bundle.mjs [${Object.keys(BUNDLES).join('|')}]`);
  process.exit(2);
}

await build({
  absWorkingDir: PACKAGE_ROOT,
  entryPoints: [bundle.entry],
  outfile: bundle.outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@scoby/source'],
  external: ['@scoby/in-memory-apiserver', '@scoby/kube-control-plane'],
  // client-node's node-fetch reaches tr46, which require()s Node's deprecated punycode module; run from
  // outside node_modules (a checkout, the bench) the bundle printed a DEP0040 warning at every start.
  // The userland package of the same code takes its place.
  alias: { punycode: 'punycode/punycode.js' },
  // CommonJS dependencies (prom-client, pino, …) call require() for Node.js modules.
  banner: {
    js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
  },
  // Error and class names appear in log lines (pino's `type`); esbuild would rename clashing ones.
  keepNames: true,
  sourcemap: true,
  logLevel: 'warning',
});
