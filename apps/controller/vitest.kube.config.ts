import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(shared, defineConfig({ test: { name: 'controller (real control plane)' } }));
// mergeConfig concatenates lists: only test/real-cluster runs here.
config.test!.include = ['test/real-cluster/**/*.test.ts'];
export default config;
