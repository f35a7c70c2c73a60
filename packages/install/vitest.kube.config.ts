import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'install (helm, kubectl, real control plane)',
      testTimeout: 240_000,
      hookTimeout: 240_000,
      // Each file starts its own control plane: one at a time on a small machine.
      fileParallelism: false,
    },
  }),
);
// mergeConfig concatenates lists: only test/kube runs here.
config.test!.include = ['test/kube/**/*.test.ts'];
export default config;
