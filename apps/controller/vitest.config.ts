import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  // test/real-cluster needs the real control plane's binaries: it runs with `test-kube` (vitest.kube.config.ts).
  defineConfig({ test: { name: 'controller', exclude: ['test/real-cluster/**', '**/node_modules/**'] } }),
);
