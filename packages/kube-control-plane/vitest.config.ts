import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(shared, defineConfig({ test: { name: 'kube-control-plane' } }));
// Unit tests only (mergeConfig would concatenate the lists): test/real needs the built binaries and
// runs with `test-kube` (vitest.kube.config.ts).
config.test!.include = ['test/unit/**/*.test.ts'];
export default config;
