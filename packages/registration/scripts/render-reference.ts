/**
 * docs/reference/crdregistration.md: one row per field of SCHEMA (path, type, required, description,
 * limits), grouped by section, each section followed by its examples (docs/reference/examples/
 * <section>--<name>.yaml). The examples are valid registrations (test/reference-examples.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA } from '../src/schema.ts';
import type { SchemaNode } from '../src/schema-node.ts';
import { REFERENCE_EXAMPLES_DIR } from './files.ts';

interface Row {
  path: string;
  node: SchemaNode;
  required: boolean;
}

function rows(node: SchemaNode, path: string, required: boolean): Row[] {
  const here: Row[] = path === '' ? [] : [{ path, node, required }];
  const object = node.items ?? node;
  const prefix = node.items ? `${path}[]` : path;
  const children = Object.entries(object.properties ?? {}).flatMap(([key, child]) =>
    rows(child, prefix === '' ? key : `${prefix}.${key}`, object.required?.includes(key) ?? false),
  );
  const values = object.additionalProperties
    ? rows(object.additionalProperties, `${prefix}.<key>`, false)
    : [];
  return [...here, ...children, ...values];
}

function typeOf(node: SchemaNode): string {
  if (node['x-kubernetes-int-or-string']) return 'integer or string';
  if (node.type === 'array') return `array of ${node.items ? typeOf(node.items) : 'any'}`;
  if (node.type === 'object' && node.additionalProperties)
    return `map of ${typeOf(node.additionalProperties)}`;
  return `${node.type ?? 'any'}${node.nullable ? ' or null' : ''}`;
}

function limits(node: SchemaNode): string {
  const parts: string[] = [];
  if (node.minLength !== undefined) parts.push('non-empty');
  if (node.minimum !== undefined && node.maximum !== undefined) parts.push(`${node.minimum}–${node.maximum}`);
  else if (node.minimum !== undefined) parts.push(`≥ ${node.minimum}`);
  if (node.enum) parts.push(node.enum.map((value) => `\`${value}\``).join(', '));
  if (node.format) parts.push(node.format);
  if (node['x-kubernetes-preserve-unknown-fields']) parts.push('other keys kept');
  return parts.join('; ');
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ');

function table(section: Row[]): string {
  const lines = ['| field | type | required | description | limits |', '| --- | --- | --- | --- | --- |'];
  for (const { path, node, required } of section) {
    lines.push(
      `| \`${cell(path)}\` | ${typeOf(node)} | ${required ? 'yes' : ''} | ${cell(node.description ?? '')} | ${limits(node)} |`,
    );
  }
  return lines.join('\n');
}

interface Example {
  title: string;
  text: string;
}

/** docs/reference/examples/<section>--<name>.yaml, its first comment line the title. */
function examplesOf(section: string): Example[] {
  return readdirSync(REFERENCE_EXAMPLES_DIR)
    .filter((file) => file.startsWith(`${section}--`) && file.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(REFERENCE_EXAMPLES_DIR, file), 'utf8');
      return { title: /^# (.*)$/m.exec(text)?.[1] ?? file, text };
    });
}

/** Sections of the page: a field belongs to the deepest section root it lies under. */
const SECTIONS = [
  'spec',
  'spec.workload.formFactor',
  'spec.workload.parameterConfiguration',
  'spec.workload.statusConfiguration',
  'spec.hook',
  'status',
];

const sectionOf = (path: string): string | undefined =>
  [...SECTIONS]
    .reverse()
    .find((root) => path === root || path.startsWith(`${root}.`) || path.startsWith(`${root}[]`));

export function renderReference(): string {
  const all = rows(SCHEMA, '', false);
  const parts = [
    '<!-- Generated from packages/registration/src/schema.ts and docs/reference/examples by `npm run generate -w @scoby/registration`. Do not edit. -->',
    '',
    '# CRDRegistration reference',
    '',
    '`scoby.triggermesh.io/v1alpha1`, kind `CRDRegistration`, cluster scoped, short name `crdreg`. Every field',
    'below is also described by `kubectl explain crdregistration.<field>`. Paths like `spec.x.y` inside values',
    'are *spec paths* of the instance ([env.md §2](../spec/env.md)); the rules Scoby checks beyond the',
    'schema, and the error each one reports, are in [registration.md §4](../spec/registration.md).',
    'Editors can check registrations with the [JSON Schema](#json-schema-for-editors).',
    '',
  ];
  for (const root of SECTIONS) {
    parts.push(`## ${root}`, '', table(all.filter((row) => sectionOf(row.path) === root)), '');
    for (const example of examplesOf(root)) {
      parts.push(`### Example: ${example.title}`, '', '```yaml', example.text.trimEnd(), '```', '');
    }
  }
  parts.push(
    '## JSON Schema for editors',
    '',
    'The schema of a registration as you write it: [`/schemas/crdregistration-v1alpha1.json`](/schemas/crdregistration-v1alpha1.json)',
    '(in the repository: `docs/public/schemas/crdregistration-v1alpha1.json`). With the YAML language server',
    "(VS Code's YAML extension and others), the first line of a file selects it:",
    '',
    '```yaml',
    '# yaml-language-server: $schema=https://scoby-ts.github.io/scoby/schemas/crdregistration-v1alpha1.json',
    'apiVersion: scoby.triggermesh.io/v1alpha1',
    'kind: CRDRegistration',
    '```',
    '',
  );
  return parts.join('\n');
}
