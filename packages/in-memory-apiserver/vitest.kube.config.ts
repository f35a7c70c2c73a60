import { defineConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The conformance suite against the real control plane (see test/conformance/real-cluster.setup.ts).
// Spread, not mergeConfig: merging would append to the shared `include` and run the unit tests too.
export default defineConfig({
  test: {
    ...shared.test,
    name: 'in-memory-apiserver conformance (real control plane)',
    include: ['test/conformance/**/*.test.ts'],
    globalSetup: ['./test/conformance/real-cluster.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
