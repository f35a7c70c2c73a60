import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// A control plane takes seconds to start on two cores.
const config = mergeConfig(
  shared,
  defineConfig({ test: { name: 'kube-control-plane (real)', testTimeout: 120_000, hookTimeout: 180_000 } }),
);
// mergeConfig concatenates lists: only test/real runs here.
config.test!.include = ['test/real/**/*.test.ts'];
export default config;
