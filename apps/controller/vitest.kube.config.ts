import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(shared, defineConfig({ test: { name: 'controller (real control plane)' } }));
// mergeConfig concatenates lists: only test/kube runs here.
config.test!.include = ['test/kube/**/*.test.ts'];
export default config;
