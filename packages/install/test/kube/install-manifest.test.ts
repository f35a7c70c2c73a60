/**
 * The release manifest and the kustomize base on the real control plane, applied with kubectl as a
 * person would; and `kubectl explain` on the installed CRD describes every field of the schema.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '@scoby/kube-control-plane';
import { SCHEMA, type SchemaNode } from '@scoby/registration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASE_MANIFEST, REPOSITORY_ROOT } from '../../src/paths.ts';
import { identity, KUBECTL, objectsOf, run, succeed } from './tools.ts';

const release = objectsOf(readFileSync(join(REPOSITORY_ROOT, RELEASE_MANIFEST), 'utf8'));

/** Every field below `node` with its explain path and the description kubectl explain shows: for a
 *  list or a map, its own followed by its items' or values' (array items are looked through). */
function fields(node: SchemaNode, path: string): { path: string; description: string }[] {
  const children = node.properties ?? node.items?.properties ?? {};
  return Object.entries(children).flatMap(([key, child]) => [
    {
      path: `${path}.${key}`,
      description: [child.description, child.items?.description, child.additionalProperties?.description]
        .filter((text) => text !== undefined)
        .join(' '),
    },
    ...fields(child, `${path}.${key}`),
  ]);
}

/** kube-apiserver describes these itself, whatever the CRD says. */
const SERVER_DESCRIBED = ['crdregistration.apiVersion', 'crdregistration.kind', 'crdregistration.metadata'];

function explain(kubeconfig: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(KUBECTL, ['--kubeconfig', kubeconfig, 'explain', path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`kubectl explain ${path}: ${out}`)),
    );
  });
}

/** The DESCRIPTION section of `kubectl explain`, its line wrapping undone. */
const descriptionOf = (output: string): string =>
  (/\nDESCRIPTION:\n([\s\S]*?)(\n[A-Z]+:\n|$)/.exec(output)?.[1] ?? '').replace(/\s+/g, ' ').trim();

describe('release manifest, kustomize base and kubectl explain on the real control plane', () => {
  let plane: ControlPlane;
  const kubectl = (...args: string[]) => succeed(KUBECTL, ['--kubeconfig', plane.kubeconfigPath, ...args]);

  beforeAll(async () => {
    plane = await startControlPlane({ log: (line) => console.log(`[install-manifest] ${line}`) });
  });
  afterAll(async () => {
    await plane?.stop();
  });

  it('kubectl apply -f deploy/release/scoby.yaml creates every object', () => {
    const applied = kubectl('apply', '--server-side', '-f', join(REPOSITORY_ROOT, RELEASE_MANIFEST));
    expect(applied.trim().split('\n')).toHaveLength(release.length);
    expect(applied).not.toMatch(/unchanged|configured/);
    for (const object of release) {
      const namespace = object.metadata.namespace ? ['-n', object.metadata.namespace] : [];
      expect(
        kubectl('get', object.kind, object.metadata.name, ...namespace, '-o', 'jsonpath={.metadata.name}'),
      ).toBe(object.metadata.name);
    }
  });

  it('the kustomize base builds the release manifest, and the example overlay is accepted', () => {
    const base = objectsOf(kubectl('kustomize', join(REPOSITORY_ROOT, 'deploy/kustomize/base')));
    const byIdentity = (objects: typeof release) =>
      new Map(objects.map((object) => [identity(object), object]));
    expect(byIdentity(base)).toEqual(byIdentity(release));
    const overlay = kubectl(
      'apply',
      '--server-side',
      '--dry-run=server',
      '-k',
      join(REPOSITORY_ROOT, 'deploy/kustomize/overlays/watch-namespaces'),
    );
    expect(overlay).toContain('deployment.apps/scoby-controller serverside-applied (server dry run)');
  });

  it('kubectl explain describes every field of the CRDRegistration schema', async () => {
    // kubectl explain finds the resource in kubectl's cached discovery and never refreshes it on a miss,
    // and the cache may have been written by the apply above before the CRD was served; so wait until
    // the CRD is established, then refresh the cache (api-resources reads discovery afresh).
    kubectl(
      'wait',
      '--for=condition=Established',
      'crd/crdregistrations.scoby.triggermesh.io',
      '--timeout=60s',
    );
    let recursive = '';
    for (const deadline = Date.now() + 60_000; ;) {
      kubectl('api-resources', '--api-group=scoby.triggermesh.io');
      const attempt = run(KUBECTL, [
        '--kubeconfig',
        plane.kubeconfigPath,
        'explain',
        'crdregistration.spec.workload',
        '--recursive',
      ]);
      if (attempt.status === 0) {
        recursive = attempt.stdout;
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`kubectl explain exited ${attempt.status}: ${attempt.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const workloadFields = fields(SCHEMA.properties!['spec']!.properties!['workload']!, '');
    for (const { path } of workloadFields)
      expect(recursive).toContain(` ${path.slice(path.lastIndexOf('.') + 1)}\t`);

    const all = [
      ...fields(SCHEMA, 'crdregistration').filter(
        ({ path }) =>
          !SERVER_DESCRIBED.some((described) => path === described || path.startsWith(`${described}.`)),
      ),
    ];
    expect(all.length).toBeGreaterThanOrEqual(138);
    expect(all.filter(({ description }) => description.trim() === '').map(({ path }) => path)).toEqual([]);
    const described: { path: string; description: string }[] = [];
    // Four kubectl processes at a time: fast enough, and kind to a loaded machine.
    for (let start = 0; start < all.length; start += 4) {
      const batch = all.slice(start, start + 4);
      const outputs = await Promise.all(batch.map(({ path }) => explain(plane.kubeconfigPath, path)));
      batch.forEach(({ path }, index) =>
        described.push({ path, description: descriptionOf(outputs[index]!) }),
      );
    }
    expect(described).toEqual(
      all.map(({ path, description }) => ({ path, description: description.replace(/\s+/g, ' ') })),
    );
  });
});
