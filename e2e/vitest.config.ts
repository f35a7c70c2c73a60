import { defineConfig, mergeConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import shared from '../vitest.shared.ts';

// kwok runs real controllers and k3s real pods: scenarios there need minutes, not seconds.
const TIMEOUT_MS: Record<string, number> = { memory: 60_000, kwok: 180_000 };
const timeoutMs = TIMEOUT_MS[process.env.E2E_CLUSTER ?? 'memory'] ?? 600_000;

/**
 * Faults injected into the node container (its components, the container itself, Scoby's pods): they
 * run one at a time once the other scenarios have finished, which they would disturb.
 */
const NODE_FAULTS = 'test/node-faults/**/*.test.ts';
/** Scenarios that replace the installed controller: they run once every other scenario has finished. */
const AFTER_SUITE = 'test/after-suite/**/*.test.ts';

function project(
  name: string,
  include: string[],
  exclude: string[],
  groupOrder: number,
  maxWorkers: number,
): TestProjectInlineConfiguration {
  return {
    ssr: shared.ssr,
    test: {
      ...shared.test,
      name,
      include,
      exclude: ['**/node_modules/**', ...exclude],
      testTimeout: timeoutMs,
      hookTimeout: timeoutMs,
      maxWorkers,
      sequence: { groupOrder },
    },
  };
}

// One cluster for both groups: the global set-up is the root's (projects inherit what it provides).
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'e2e',
      globalSetup: ['./src/global-setup.ts'],
      projects: [
        project('e2e', shared.test?.include ?? [], [NODE_FAULTS, AFTER_SUITE], 0, 2),
        project('e2e-node-faults', [NODE_FAULTS], [], 1, 1),
        project('e2e-after-suite', [AFTER_SUITE], [], 2, 1),
      ],
    },
  }),
);
