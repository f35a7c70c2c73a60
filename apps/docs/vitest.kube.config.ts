import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/**
 * `npm run test-kube -w @scoby/docs`: every shell block of the tested pages, run on the embedded
 * clusters (the in-memory API server, and the real control plane of `npm run kube-binaries`).
 */
const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      name: 'docs (documented commands)',
      testTimeout: 600_000,
      hookTimeout: 300_000,
      // Pages share the clone's .scoby/kubeconfig and the default ops port: one at a time.
      fileParallelism: false,
    },
  }),
);
config.test!.include = ['test/**/*.kube.test.ts'];
export default config;
