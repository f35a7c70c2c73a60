import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../vitest.shared.ts';

// k3s runs real pods: scenarios there need minutes, not seconds.
const onMemory = (process.env.E2E_CLUSTER ?? 'memory') === 'memory';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'e2e',
      globalSetup: ['./src/global-setup.ts'],
      testTimeout: onMemory ? 60_000 : 600_000,
      hookTimeout: onMemory ? 60_000 : 600_000,
      maxWorkers: 2,
    },
  }),
);
