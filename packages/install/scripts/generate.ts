/**
 * Regenerates the install artefacts from deploy/ and crds/ (src/generated-files.ts). Tests fail when a
 * committed file differs from a fresh generation (test/generated.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedFiles } from '../src/generated-files.ts';
import { REPOSITORY_ROOT } from '../src/paths.ts';
import { readInstallSources } from '../src/sources.ts';

for (const [path, text] of Object.entries(generatedFiles(readInstallSources()))) {
  mkdirSync(dirname(join(REPOSITORY_ROOT, path)), { recursive: true });
  writeFileSync(join(REPOSITORY_ROOT, path), text);
}
