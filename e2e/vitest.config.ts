import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../vitest.shared.ts';

// kwok runs real controllers and k3s real pods: scenarios there need minutes, not seconds.
const TIMEOUT_MS: Record<string, number> = { memory: 60_000, kwok: 180_000 };
const timeoutMs = TIMEOUT_MS[process.env.E2E_CLUSTER ?? 'memory'] ?? 600_000;

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'e2e',
      globalSetup: ['./src/global-setup.ts'],
      testTimeout: timeoutMs,
      hookTimeout: timeoutMs,
      maxWorkers: 2,
    },
  }),
);
