import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'controller (real control plane)',
      globalSetup: ['./test/real-cluster/support/global-setup.ts'],
      testTimeout: 180_000,
      hookTimeout: 180_000,
      // One controller per file against one control plane: files run one at a time.
      fileParallelism: false,
    },
  }),
);
// mergeConfig concatenates lists: only test/real-cluster and test/kubectl (kubectl of the pinned release) run here.
config.test!.include = ['test/real-cluster/**/*.test.ts', 'test/kubectl/**/*.test.ts'];
export default config;
