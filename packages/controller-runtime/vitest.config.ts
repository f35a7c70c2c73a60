import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(shared, defineConfig({ test: { name: 'controller-runtime' } }));
// mergeConfig concatenates lists: the tests are under test/ only (src/testing holds helpers, not tests).
config.test!.include = ['test/**/*.test.ts'];
export default config;
