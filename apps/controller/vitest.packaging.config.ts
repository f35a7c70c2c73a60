import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/** `npm run test-packaging`: packs, installs and runs the published packages; slow, so apart from `test`. */
const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'controller (packed packages)',
      // Building, packing and a production install take minutes on a loaded machine.
      testTimeout: 180_000,
      hookTimeout: 900_000,
    },
  }),
);
// mergeConfig concatenates lists: only test/packaging runs here.
config.test!.include = ['test/packaging/**/*.test.ts'];
export default config;
