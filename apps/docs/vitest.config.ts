import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/** `npm test`: the guides' code and statements; test/pages.kube.test.ts runs with `test-kube`. */
const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'docs',
      testTimeout: 120_000,
      hookTimeout: 60_000,
    },
  }),
);
config.test!.exclude = ['**/node_modules/**', 'test/**/*.kube.test.ts'];
export default config;
