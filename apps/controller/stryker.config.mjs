// Mutation testing of the instance plan (src/instance/plan/, the pure core the reconciler and
// `scoby render` share): Stryker changes it one mutant at a time and runs against each the tests of
// vitest.mutation.config.ts that ran its code. The method and the runtime's runs:
// packages/controller-runtime/mutation/README.md; this package's report: mutation/report.md.
//   npm run mutation -w @scoby/controller
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: ['src/instance/plan/**/*.ts'],
  disableTypeChecks: 'src/**/*.ts',
  // Two levels below the repository root, as in the runtime: the sandbox's ../../ is the root.
  tempDirName: '../../.stryker-tmp',
  tsconfigFile: 'no-tsconfig-rewrite.json',
  concurrency: 2,
  timeoutMS: 20_000,
  timeoutFactor: 3,
  incremental: true,
  incrementalFile: 'mutation/plan/incremental.json',
  reporters: ['clear-text', 'progress-append-only', 'html'],
  htmlReporter: { fileName: 'mutation/plan/mutation.html' },
  thresholds: { high: 90, low: 80, break: null },
};
