import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The conformance suite against the real control plane (see test/conformance/real-cluster.setup.ts).
const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'in-memory-apiserver conformance (real control plane)',
      globalSetup: ['./test/conformance/real-cluster.setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 60_000,
    },
  }),
);
// mergeConfig concatenates lists: only the conformance suite runs here.
config.test!.include = ['test/conformance/**/*.test.ts'];
export default config;
