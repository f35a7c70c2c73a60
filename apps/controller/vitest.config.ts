import { defineConfig, mergeConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// test/real-cluster and test/kubectl need the real control plane's binaries (kubectl among them): they run
// with `test-kube` (vitest.kube.config.ts);
// test/packaging packs and installs the packages: it runs with `test-packaging` (vitest.packaging.config.ts);
// the release's dry run builds, packs and publishes them: it runs with `test-release` (vitest.release.config.ts).
const ELSEWHERE = [
  'test/real-cluster/**',
  'test/kubectl/**',
  'test/packaging/**',
  'test/release/dry-run.test.ts',
  '**/node_modules/**',
];

/** Files that start `scoby run` or the bundle as processes and time their start-up, signals and exits. */
const PROCESSES = [
  'test/cli/bin.test.ts',
  'test/cli/bundle.test.ts',
  'test/cli/embedded.test.ts',
  'test/cli/shutdown.test.ts',
  'test/cli/startup.test.ts',
];

function project(
  name: string,
  include: string[],
  exclude: string[],
  groupOrder: number,
  maxWorkers: number,
): TestProjectInlineConfiguration {
  return {
    ssr: shared.ssr,
    test: { ...shared.test, name, include, exclude, maxWorkers, sequence: { groupOrder } },
  };
}

// Most files spend their time waiting on timers and on in-memory servers over HTTP, not on the CPU:
// vitest's default of one file at a time on two cores (cores - 1) took 735 s (load 4 rising to 19)
// where this takes 282 s (load 4-5), every test passing both ways. The files that start processes
// run afterwards, one at a time: beside three other files, a child's start-up missed its waits.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'controller',
      projects: [
        project('controller', shared.test?.include ?? [], [...ELSEWHERE, ...PROCESSES], 0, 3),
        project('controller (processes)', PROCESSES, ELSEWHERE, 1, 1),
      ],
    },
  }),
);
