/**
 * Regenerates the committed artefacts derived from SCHEMA: the CRD manifest, the user-facing types, the
 * schema check's validator, the reference page of the documentation and the JSON Schema for editors.
 * Tests fail when either differs from a fresh rendering (test/generated.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { crdManifestYaml } from '../src/manifest.ts';
import { editorSchemaJson } from './editor-schema.ts';
import {
  EDITOR_SCHEMA_FILE,
  MANIFEST_FILE,
  REFERENCE_FILE,
  SHAPE_VALIDATOR_FILE,
  TYPES_FILE,
} from './files.ts';
import { renderReference } from './render-reference.ts';
import { renderShapeValidator } from './render-shape-validator.ts';
import { renderTypes } from './render-types.ts';

writeFileSync(MANIFEST_FILE, crdManifestYaml());
writeFileSync(TYPES_FILE, await renderTypes());
writeFileSync(SHAPE_VALIDATOR_FILE, renderShapeValidator());
mkdirSync(dirname(EDITOR_SCHEMA_FILE), { recursive: true });
writeFileSync(EDITOR_SCHEMA_FILE, editorSchemaJson());
writeFileSync(REFERENCE_FILE, renderReference());
