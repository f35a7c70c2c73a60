import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  // test/kube needs the real control plane's binaries: it runs with `test-kube` (vitest.kube.config.ts).
  defineConfig({ test: { name: 'controller', exclude: ['test/kube/**', '**/node_modules/**'] } }),
);
