import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  // test/real-cluster and test/kubectl need the real control plane's binaries (kubectl among them): they run
  // with `test-kube` (vitest.kube.config.ts);
  // test/packaging packs and installs the packages: it runs with `test-packaging` (vitest.packaging.config.ts).
  defineConfig({
    test: {
      name: 'controller',
      exclude: ['test/real-cluster/**', 'test/kubectl/**', 'test/packaging/**', '**/node_modules/**'],
    },
  }),
);
