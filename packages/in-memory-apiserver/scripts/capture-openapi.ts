// Captures kube-apiserver's OpenAPI documents (/openapi/v2 and /openapi/v3/<group-version>) from the
// real control plane of the pinned release into data/kube-openapi.json, cut down to what the in-memory
// server serves, so built-in schemas are never written by hand. Also captures the documents kube-apiserver
// generates for two template CRDs (namespaced and cluster-scoped, with status and scale): the in-memory
// server renders a CRD's paths from them. Run: npm run capture-openapi -w @scoby/in-memory-apiserver
import https from 'node:https';
import { writeFileSync } from 'node:fs';
import { startControlPlane } from '@scoby/kube-control-plane';
import { parse as parseYaml } from 'yaml';
import { BUILTIN_TYPES } from '../src/builtin-types.ts';
import { CRD_TEMPLATES, type CrdTemplate } from '../src/openapi/crd-template-names.ts';
import { filterV2, filterV3, splitV2ByGroup, type ServedResource } from './openapi-filter.ts';

type JsonObject = Record<string, unknown>;

const OUTPUT = new URL('../data/kube-openapi.json', import.meta.url);

interface KubeconfigYaml {
  clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
}

type Request = (method: string, path: string, body?: unknown, accept?: string) => Promise<unknown>;

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

function client(kubeconfigYaml: string): Request {
  const config = parseYaml(kubeconfigYaml) as KubeconfigYaml;
  const cluster = config.clusters[0]!.cluster;
  const user = config.users[0]!.user;
  const url = new URL(cluster.server);
  const agent = new https.Agent({
    ca: Buffer.from(cluster['certificate-authority-data'], 'base64'),
    cert: Buffer.from(user['client-certificate-data'], 'base64'),
    key: Buffer.from(user['client-key-data'], 'base64'),
  });
  return (method, path, body, accept = 'application/json') =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = https.request(
        {
          hostname: url.hostname,
          port: url.port,
          path,
          method,
          agent,
          headers: {
            Accept: accept,
            ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((response.statusCode ?? 0) >= 300) {
              reject(new Error(`${method} ${path}: ${response.statusCode} ${text.slice(0, 300)}`));
            } else resolve(JSON.parse(text));
          });
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
}

function templateCrd(template: CrdTemplate): JsonObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${template.plural}.${template.group}` },
    spec: {
      group: template.group,
      scope: template.scope,
      names: { plural: template.plural, singular: template.singular, kind: template.kind },
      versions: [
        {
          name: template.version,
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
          },
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

function builtinResources(): ServedResource[] {
  return BUILTIN_TYPES.flatMap((type) =>
    type.versions.map((version) => ({
      group: type.group,
      version,
      plural: type.plural,
      subresources: [...(type.statusSubresource ? ['status'] : []), ...(type.scale ? ['scale'] : [])],
    })),
  );
}

function templateResource(template: CrdTemplate): ServedResource {
  return {
    group: template.group,
    version: template.version,
    plural: template.plural,
    subresources: ['status', 'scale'],
  };
}

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

async function eventuallyServed(request: Request, path: string): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request('GET', path);
    } catch (error) {
      if (attempt > 60) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

const plane = await startControlPlane({ log: (line) => process.stderr.write(`capture-openapi: ${line}\n`) });
try {
  const request = client(plane.kubeconfigYaml);
  const version = (await request('GET', '/version')) as { gitVersion: string };
  for (const template of CRD_TEMPLATES) {
    await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', templateCrd(template));
  }
  const builtins = builtinResources();
  const templates = CRD_TEMPLATES.map(templateResource);
  const v3Documents: Record<string, unknown> = {};
  for (const gv of new Set(builtins.map((resource) => gvPath(resource.group, resource.version)))) {
    const document = (await request('GET', `/openapi/v3/${gv}`)) as JsonObject;
    v3Documents[gv] = filterV3(document, builtins);
  }
  const crdTemplatesV3: Record<string, unknown> = {};
  for (const template of CRD_TEMPLATES) {
    const gv = gvPath(template.group, template.version);
    crdTemplatesV3[template.scope] = filterV3(
      (await eventuallyServed(request, `/openapi/v3/${gv}`)) as JsonObject,
      [templateResource(template)],
    );
  }
  // The aggregated v2 document is rebuilt a few seconds after a CRD is established.
  let v2: JsonObject;
  for (let attempt = 0; ; attempt++) {
    v2 = (await request('GET', '/openapi/v2')) as JsonObject;
    const paths = Object.keys(v2.paths as JsonObject);
    if (templates.every((template) => paths.some((path) => path.includes(`/${template.plural}`)))) break;
    if (attempt > 60) throw new Error('the template CRDs never appeared in /openapi/v2');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const v2Split = splitV2ByGroup(
    filterV2(v2, [...builtins, ...templates]),
    CRD_TEMPLATES.map((template) => template.group),
  );
  // The columns kube-apiserver's printers give each built-in list (the cells are computed in src/table/).
  const tables: Record<string, unknown> = {};
  for (const type of BUILTIN_TYPES.filter((candidate) => candidate.verbs.includes('list'))) {
    const path = `/${type.group === '' ? 'api' : `apis/${type.group}`}/${type.versions[0]}/${type.plural}`;
    const table = (await request('GET', path, undefined, TABLE)) as { columnDefinitions: unknown };
    tables[`${type.group}/${type.plural}`] = table.columnDefinitions;
  }
  const data = {
    $comment:
      'Generated by scripts/capture-openapi.ts from the real control plane; do not edit (see data/README.md).',
    kubernetesVersion: version.gitVersion,
    v2: v2Split.rest,
    v3: v3Documents,
    tableColumns: tables,
    crdTemplates: {
      names: CRD_TEMPLATES,
      v2: v2Split.groups,
      v3: crdTemplatesV3,
    },
  };
  writeFileSync(OUTPUT, JSON.stringify(data) + '\n');
  process.stderr.write(`capture-openapi: wrote ${OUTPUT.pathname} from ${version.gitVersion}\n`);
} finally {
  await plane.stop();
}
