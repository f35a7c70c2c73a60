import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/** `npm run test-release`: the release's dry run, which builds and packs every package; slow, so apart from `test`. */
const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'controller (release dry run)',
      // Building, packing and publishing fourteen packages take minutes on a loaded machine.
      testTimeout: 900_000,
      hookTimeout: 900_000,
    },
  }),
);
// mergeConfig concatenates lists: only the dry run runs here.
config.test!.include = ['test/release/dry-run.test.ts'];
export default config;
