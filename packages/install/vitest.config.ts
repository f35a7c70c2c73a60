import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

const config = mergeConfig(shared, defineConfig({ test: { name: 'install' } }));
// test/kube needs helm, kubectl and the real control plane: the test-kube target runs it.
config.test!.exclude = [...configDefaults.exclude, 'test/kube/**'];
export default config;
