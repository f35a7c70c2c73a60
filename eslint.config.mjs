import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.scoby/**', '**/*.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts', '**/*.js', '**/*.mjs'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // The repository's own scripts (the release and its local registry) belong to no project:
          // the controller's tests import their pure parts from the root's scripts/ folder.
          allow: ['../../../../scripts/*'],
          // The `scoby` bundle imports the embedded clusters only for `run --embedded`; tests import them.
          checkDynamicDependenciesExceptions: ['@scoby/in-memory-apiserver', '@scoby/kube-control-plane'],
          depConstraints: [
            // Pure packages: no I/O adapters, and never the Kubernetes client.
            {
              sourceTag: 'scope:pure',
              onlyDependOnLibsWithTags: ['scope:pure'],
              bannedExternalImports: ['@kubernetes/client-node'],
            },
            // The hook client and SDK (scope:net) stand on pure packages only.
            { sourceTag: 'scope:net', onlyDependOnLibsWithTags: ['scope:pure'] },
            // Kubernetes machinery (controller-runtime, the API servers) takes nothing from the hook protocol.
            { sourceTag: 'scope:kube', notDependOnLibsWithTags: ['scope:net'] },
            // Libraries never import runnable programs.
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
          ],
        },
      ],
    },
  },
  {
    // The controller's helpers serve the reconciles and controllers; none of them imports a reconcile.
    files: [
      'apps/controller/src/{config,crd,status}/**/*.ts',
      'apps/controller/src/instance/{children,status}/**/*.ts',
      'apps/controller/src/instance/!(reconcile|controller|controllers).ts',
      'apps/controller/src/registration/access/**/*.ts',
      'apps/controller/src/registration/!(reconcile|controller).ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/reconcile.ts', '**/reconcile'],
              message: 'a helper must not import a reconcile: move what both need into the helper',
            },
          ],
        },
      ],
    },
  },
  {
    // CommonJS modules (the loader's test fixtures: what tsc emits for a CommonJS project).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', exports: 'writable', require: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
