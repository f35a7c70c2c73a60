/**
 * The worked examples of docs/spec/env.md §10 against the code, read from the spec itself: each
 * example's spec and parameterConfiguration go through registration validation (normalisation) and
 * the controller's render lookups, and the output must be the example's, in its order.
 */
import { renderEnv, type RenderResult } from '@scoby/env';
import type { KubeObject } from '@scoby/kube-objects';
import { validateRegistration } from '@scoby/registration';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { objectLookups } from '../../src/cli/render/object-lookups.ts';
import { builtInFormFactors } from '../../src/process/built-in-form-factors.ts';
import { section, specText } from './spec-tables.ts';

const EXAMPLES = section(specText('env.md'), '## 10.');

/**
 * The objects an example's prose names (E8: a Service and a Broker; E9: a controller ConfigMap in
 * `SCOBY_NAMESPACE=triggermesh`), as the render lookups find them.
 */
const WORLD: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'shop', name: 'collector' } },
  {
    apiVersion: 'eventing.knative.dev/v1',
    kind: 'Broker',
    metadata: { namespace: 'infra', name: 'default' },
    status: { address: { url: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default' } },
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: 'triggermesh', name: 'scoby-flags' },
    data: { flags: 'beta,metrics' },
  },
];

interface Example {
  title: string;
  text: string;
  blocks: { lang: string; body: string }[];
}

function examples(): Example[] {
  return EXAMPLES.split(/^### /m)
    .slice(1)
    .map((part) => {
      const newline = part.indexOf('\n');
      const text = part.slice(newline + 1);
      const blocks = [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
        lang: match[1] ?? '',
        body: match[2] ?? '',
      }));
      return { title: part.slice(0, newline).trim(), text, blocks };
    });
}

/** The spec and normalised parameterConfiguration of an example's first YAML block. */
function exampleInput(yamlText: string): { spec: unknown; hasSpec: boolean; configuration: unknown } {
  const documents = parseAllDocuments(yamlText).map(
    (document) => (document as { toJS(): unknown }).toJS() as Record<string, unknown>,
  );
  const specDocument = documents.find((document) => 'spec' in document);
  const configDocument = documents.find((document) => 'parameterConfiguration' in document);
  const registration = {
    apiVersion: 'scoby.triggermesh.io/v1alpha1',
    kind: 'CRDRegistration',
    metadata: { name: 'example' },
    spec: {
      crd: 'things.example.org',
      workload: {
        fromImage: { repo: 'registry.example.com/thing:1' },
        ...(configDocument ? { parameterConfiguration: configDocument.parameterConfiguration } : {}),
      },
    },
  } as KubeObject;
  const validation = validateRegistration(registration, builtInFormFactors([]));
  if (!validation.ok) throw new Error(`${validation.reason}: ${validation.message}`);
  return {
    spec: specDocument?.spec,
    hasSpec: specDocument !== undefined,
    configuration: validation.spec.parameterConfiguration,
  };
}

async function renderExample(yamlText: string, namespace: string): Promise<RenderResult> {
  const { spec, hasSpec, configuration } = exampleInput(yamlText);
  const instance = {
    apiVersion: 'example.org/v1',
    kind: 'Thing',
    metadata: { name: 'thing', namespace },
    ...(hasSpec ? { spec } : {}),
  };
  return renderEnv(
    { instance, config: configuration as Parameters<typeof renderEnv>[0]['config'] },
    objectLookups(WORLD, { scobyNamespace: 'triggermesh', clusterDomain: 'cluster.local' }),
  );
}

/** `NAME=value` and `NAME ← secretKeyRef{…}` lines (§10's notation) as env entries. */
function envOf(output: string): unknown[] {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const arrow = line.indexOf(' ← ');
      if (arrow < 0) {
        const equals = line.indexOf('=');
        return { name: line.slice(0, equals), value: line.slice(equals + 1) };
      }
      const reference = line.slice(arrow + 3);
      const brace = reference.indexOf('{');
      return {
        name: line.slice(0, arrow),
        valueFrom: { [reference.slice(0, brace)]: parse(reference.slice(brace)) as unknown },
      };
    });
}

/** The namespace an example states (`Instance in namespace \`shop\``), else `default`. */
function namespaceOf(example: Example): string {
  return /Instance in namespace `([^`]+)`/.exec(example.text)?.[1] ?? 'default';
}

describe('worked examples (docs/spec/env.md §10)', () => {
  const all = examples();

  it('are all here', () => {
    expect(all.map((example) => example.title.split(' ')[0])).toEqual(
      Array.from({ length: 13 }, (_, index) => `E${index + 1}`),
    );
  });

  for (const example of all) {
    it(example.title, async () => {
      const [input, output] = example.blocks;
      if (example.title.startsWith('E13')) {
        // "Configuration of E7": E7's parameterConfiguration with this example's spec.
        const e7 = all.find((candidate) => candidate.title.startsWith('E7'))!;
        const configuration = e7.blocks[0]!.body.split(/^---$/m)[1] ?? '';
        const result = await renderExample(`${input!.body}---\n${configuration}`, 'default');
        expect(result.errors.join('; ')).toBe(output!.body.trim());
        const oops = /With `spec: "oops"` the message is `([^`]+)`/.exec(example.text)?.[1];
        const rejected = await renderExample(`spec: oops\n---\n${configuration}`, 'default');
        expect(rejected.errors.join('; ')).toBe(oops);
        return;
      }
      const result = await renderExample(input!.body, namespaceOf(example));
      expect(result.errors).toEqual([]);
      if (output!.lang === 'yaml') {
        const expected = parse(output!.body) as Record<string, unknown>;
        expect({ env: result.env, volumeMounts: result.volumeMounts, volumes: result.volumes }).toEqual({
          env: [],
          volumeMounts: [],
          volumes: [],
          ...expected,
        });
      } else {
        expect(result.env).toEqual(envOf(output!.body));
      }
    });
  }
});
