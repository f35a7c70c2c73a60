import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { editorSchema, editorSchemaJson } from '../scripts/editor-schema.ts';
import { EDITOR_SCHEMA_FILE, REFERENCE_EXAMPLES_DIR, REFERENCE_FILE } from '../scripts/files.ts';
import { renderReference } from '../scripts/render-reference.ts';
import { problemsOf } from './fixtures.ts';

const REGENERATE = 'stale: run `npm run generate -w @scoby/registration`';
const examples = readdirSync(REFERENCE_EXAMPLES_DIR).filter((file) => file.endsWith('.yaml'));
const checkEditorSchema = new Ajv({ allErrors: true, strict: false }).compile(editorSchema());

describe('documentation generated from SCHEMA', () => {
  it('docs/reference/crdregistration.md is up to date', () => {
    expect(readFileSync(REFERENCE_FILE, 'utf8'), REGENERATE).toBe(renderReference());
  });

  it('docs/public/schemas/crdregistration-v1alpha1.json is up to date', () => {
    expect(readFileSync(EDITOR_SCHEMA_FILE, 'utf8'), REGENERATE).toBe(editorSchemaJson());
  });

  it('the reference lists every spec field with its description', () => {
    const reference = renderReference();
    expect(reference).toContain(
      '| `spec.workload.parameterConfiguration.add.toEnv[].valueFrom.fieldRef` | object |  | Legacy alias of field; setting both is a validation error. |',
    );
    expect(reference).toContain('| `spec.hook.timeout` | string |  | Bound of one call');
  });
});

describe('reference examples (docs/reference/examples)', () => {
  it('cover every section of the reference but the status', () => {
    const sections = new Set(examples.map((file) => file.split('--')[0]));
    expect([...sections].sort()).toEqual([
      'spec',
      'spec.hook',
      'spec.workload.formFactor',
      'spec.workload.parameterConfiguration',
      'spec.workload.statusConfiguration',
    ]);
  });

  for (const file of examples) {
    const registration = parse(readFileSync(join(REFERENCE_EXAMPLES_DIR, file), 'utf8')) as unknown;
    it(`${file} is a valid registration for Scoby and for the editor schema`, () => {
      expect(problemsOf(registration)).toEqual([]);
      expect(checkEditorSchema(registration), JSON.stringify(checkEditorSchema.errors)).toBe(true);
    });
  }

  it('the editor schema flags a misspelt field the API server would silently prune', () => {
    const misspelt = parse(readFileSync(join(REFERENCE_EXAMPLES_DIR, 'spec--minimal.yaml'), 'utf8')) as {
      spec: { workload: Record<string, unknown> };
    };
    misspelt.spec.workload['formfactor'] = { deployment: {} };
    expect(checkEditorSchema(misspelt)).toBe(false);
    expect(checkEditorSchema.errors?.[0]).toMatchObject({
      instancePath: '/spec/workload',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'formfactor' },
    });
  });
});
