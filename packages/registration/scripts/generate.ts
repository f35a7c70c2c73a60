/**
 * Regenerates the committed artefacts derived from SCHEMA: the CRD manifest and the user-facing types.
 * Tests fail when either differs from a fresh rendering (test/generated.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { crdManifestYaml } from '../src/manifest.ts';
import { MANIFEST_FILE, TYPES_FILE } from './files.ts';
import { renderTypes } from './render-types.ts';

writeFileSync(MANIFEST_FILE, crdManifestYaml());
writeFileSync(TYPES_FILE, await renderTypes());
