#!/usr/bin/env node
// The `scoby` command. An installed package runs its bundle, dist/scoby.mjs (scripts/bundle.mjs). In
// the repository, where the TypeScript sources are present, it runs them through tsx with no build
// step, and resolves the other @scoby/* packages to their sources as well (their `@scoby/source`
// export condition).
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const sources = import.meta.resolve('../src/cli/main.ts');
if (existsSync(fileURLToPath(sources))) {
  const tsx = await import('tsx/esm/api');
  tsx.register();
  const addSourceCondition = `export function resolve(specifier, context, next) {
    return next(specifier, { ...context, conditions: [...context.conditions, '@scoby/source'] });
  }`;
  register(`data:text/javascript,${encodeURIComponent(addSourceCondition)}`);
  await import(sources);
} else {
  await import('../dist/scoby.mjs');
}
