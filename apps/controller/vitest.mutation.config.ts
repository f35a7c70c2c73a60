import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/**
 * The tests Stryker runs against the instance plan's mutants (stryker.config.mjs): the plan's unit
 * tests and the in-memory integration tests that go through it (render, hooks, conditions, failure
 * policy, warnings). Left out: the render property (minutes per run; it runs in `npm test`), and the
 * files that start processes or time throughput.
 */
const config = mergeConfig(shared, defineConfig({ test: { name: 'controller (instance plan mutants)' } }));
// Set after the merge: mergeConfig appends arrays, so the shared include (every test) would stay.
config.test!.include = [
  'test/instance/**/*.test.ts',
  'test/cli/render.test.ts',
  'test/cli/render-samples.test.ts',
  'test/cli/hook-check/**/*.test.ts',
  'test/integration/hooks-*.test.ts',
  'test/integration/render-*.test.ts',
  'test/integration/warnings.test.ts',
  'test/integration/customizations.test.ts',
  'test/integration/form-factors.test.ts',
  'test/integration/env-expansion.test.ts',
  'test/integration/reconcile-failures.test.ts',
  'test/integration/deployment-ready-without-pods.test.ts',
];
config.test!.exclude = [
  'test/integration/render-equals-controller.test.ts',
  'test/integration/hooks-throughput.test.ts',
  '**/node_modules/**',
];
export default config;
