import { defineConfig } from 'vitest/config';

/**
 * Workspace packages export their TypeScript sources under this condition (and their built JavaScript
 * otherwise), so tests run the sources of every package without a build. The rest is Vite's default.
 */
const conditions = ['@scoby/source', 'module', 'node', 'development|production'];

/** The one vitest setup every project extends (see each project's vitest.config.ts). */
export default defineConfig({
  ssr: { resolve: { conditions } },
  // globalSetup files run in Vitest's own environment, which does not take the ssr settings.
  environments: { __vitest__: { resolve: { conditions } } },
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
