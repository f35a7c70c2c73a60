// Mutation testing of the runtime (mutation/README.md): Stryker changes src/ one mutant at a time and
// runs the package's vitest suite against each. One module per run, named by MUTATION_MODULE (a
// folder of src/), which also names the run's reports and incremental file:
//   MUTATION_MODULE=queue npm run mutation -w @scoby/controller-runtime
const module = process.env.MUTATION_MODULE;
if (!module)
  throw new Error('MUTATION_MODULE names the folder of src/ to mutate, e.g. MUTATION_MODULE=queue');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts' },
  // Only the tests that ran a mutant's code run against it.
  coverageAnalysis: 'perTest',
  mutate: [`src/${module}/**/*.ts`],
  // Only the mutated sources get Stryker's `// @ts-nocheck`: a test compares test/example/ with the README.
  disableTypeChecks: 'src/**/*.ts',
  // Two levels below the repository root, as this package is: the sandbox's ../../ is the root, so
  // vitest.config.ts finds vitest.shared.ts and tsconfig.json its base there, as they do here.
  tempDirName: '../../.stryker-tmp',
  // Stryker rewrites the tsconfig's relative `extends` for a sandbox inside the package; this one is
  // not, and needs none: no tsconfig of that name, so nothing is rewritten.
  tsconfigFile: 'no-tsconfig-rewrite.json',
  concurrency: 2,
  // The suite's timers run in real time on a loaded machine: a mutant is a timeout only well past
  // what its tests took unmutated.
  timeoutMS: 15_000,
  timeoutFactor: 3,
  // The incremental file is the run's whole report (mutation-testing-report-schema, every mutant and
  // the tests that ran it), committed: a later run tests again only the mutants whose file or tests
  // changed (--force tests all). mutation/survivors.mjs reads it; the HTML view stays local.
  incremental: true,
  incrementalFile: `mutation/${module}/incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'html'],
  htmlReporter: { fileName: `mutation/${module}/mutation.html` },
  thresholds: { high: 90, low: 80, break: null },
};
