/**
 * A newcomer's first cluster: against `scoby run --embedded` (the in-memory API server) kubectl of the
 * pinned release, with its default flags, applies (validating on the server), explains, gets with
 * columns, describes with Events, edits, scales, and reports a server-side apply conflict.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateBinaries } from '@scoby/kube-control-plane';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScoby, type Running } from '../cli/child-process.ts';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: string;
let scoby: Running;
let kubectlPath: string;

function kubectl(args: string[], env: Record<string, string> = {}, input?: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectlPath,
      args,
      // A HOME of its own: no discovery cache of another cluster, no user kubeconfig.
      { env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: join(dir, 'kubeconfig'), ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? 1), stdout, stderr }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: main, image: "nginx:1"}]}
`;

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function replicas(): Promise<string> {
  return (await kubectl(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'])).stdout;
}

beforeAll(async () => {
  const located = locateBinaries();
  if (!located.ok) throw new Error(located.message);
  kubectlPath = join(located.folder, 'kubectl');
  dir = await mkdtemp(join(tmpdir(), 'scoby-kubectl-'));
  scoby = startScoby(
    [
      'run',
      '--embedded',
      '--sample',
      '--kubeconfig-out',
      join(dir, 'kubeconfig'),
      '--metrics-bind-address',
      '127.0.0.1:0',
    ],
    { cwd: dir },
  );
  await eventually('the kubeconfig', async () =>
    scoby.stderr().includes('kubeconfig written') ? true : undefined,
  );
  await eventually('the sample Greeter to be Ready', async () => {
    const ready = await kubectl([
      'get',
      'greeter',
      'hello',
      '-o',
      'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
    ]);
    return ready.stdout === 'True' ? true : undefined;
  });
}, 120_000);

afterAll(async () => {
  scoby?.child.kill('SIGTERM');
  await scoby?.exited;
});

describe('kubectl with its default flags against scoby run --embedded', () => {
  it('applies a manifest, validated on the server (an unknown field is refused)', async () => {
    expect(await kubectl(['apply', '-f', await file('web.yaml', WEB)])).toEqual({
      code: 0,
      stdout: 'deployment.apps/web created\n',
      stderr: '',
    });
    const bogus = await kubectl([
      'apply',
      '-f',
      await file('bogus.yaml', WEB.replace('replicas: 2', 'replicas: 2\n  bogus: 1')),
    ]);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('strict decoding error: unknown field "spec.bogus"');
  });

  it('explains built-in and custom kinds from the OpenAPI documents', async () => {
    const replicasField = await kubectl(['explain', 'deployment.spec.replicas']);
    expect(replicasField.code).toBe(0);
    expect(replicasField.stdout).toContain('FIELD: replicas <integer>');
    expect(replicasField.stdout).toContain('Number of desired pods.');
    const greeter = await kubectl(['explain', 'greeters.spec']);
    expect(greeter.code).toBe(0);
    expect(greeter.stdout).toMatch(/^GROUP:\s+samples\.scoby\.dev\nKIND:\s+Greeter\nVERSION:\s+v1alpha1\n/);
    expect(greeter.stdout).toMatch(/greeting\t<string> -required-/);
  });

  it('gets with the server-side columns of built-ins and the printer columns of a CRD', async () => {
    const deployment = await eventually('web to be available', async () => {
      const got = await kubectl(['get', 'deployment', 'web']);
      return /^web\s+2\/2\s/m.test(got.stdout) ? got : undefined;
    });
    expect(deployment.stdout).toMatch(
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+2\/2\s+2\s+2\s+\d+s\n$/,
    );
    const greeters = await kubectl(['get', 'greeters']);
    expect(greeters.stdout).toMatch(
      /^NAME\s+READY\s+URL\nhello\s+True\s+http:\/\/greeter-hello\.default\.svc\.cluster\.local\n$/,
    );
  });

  it('describes an instance with the Events the controller recorded', async () => {
    const described = await kubectl(['describe', 'greeter', 'hello']);
    expect(described.code).toBe(0);
    const events = described.stdout.slice(described.stdout.indexOf('\nEvents:'));
    expect(events).toMatch(
      /Normal\s+Created\s+\S+\s+scoby-controller\s+created Deployment default\/greeter-hello, Service default\/greeter-hello/,
    );
  });

  it('edits through $KUBE_EDITOR and scales', async () => {
    const editor = await file('editor.sh', `#!/bin/sh\nsed -i 's/replicas: 2/replicas: 3/' "$1"\n`);
    await chmod(editor, 0o755);
    expect(await kubectl(['edit', 'deployment', 'web'], { KUBE_EDITOR: editor })).toMatchObject({
      code: 0,
      stdout: 'deployment.apps/web edited\n',
    });
    expect(await replicas()).toBe('3');
    expect(await kubectl(['scale', 'deployment', 'web', '--replicas=4'])).toMatchObject({
      code: 0,
      stdout: 'deployment.apps/web scaled\n',
    });
    expect(await replicas()).toBe('4');
  });

  it("differs: kubectl's create generators send protobuf, which the in-memory server does not read", async () => {
    const created = await kubectl(['create', 'configmap', 'generated', '--from-literal=a=b']);
    expect(created.code).toBe(1);
    expect(created.stderr).toContain(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    );
    expect(
      await kubectl(
        ['create', '-f', '-'],
        {},
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-file, namespace: default}\n',
      ),
    ).toMatchObject({
      code: 0,
      stdout: 'configmap/from-file created\n',
    });
  });

  it('server-side applies; a conflict with another field manager is reported, and forced', async () => {
    const configMap = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: shared, namespace: default}\ndata: {key: ${value}}\n`;
    expect(
      await kubectl(['apply', '--server-side', '-f', await file('one.yaml', configMap('one'))]),
    ).toMatchObject({
      code: 0,
      stdout: 'configmap/shared serverside-applied\n',
    });
    const other = [
      'apply',
      '--server-side',
      '--field-manager=other',
      '-f',
      await file('two.yaml', configMap('two')),
    ];
    const conflicting = await kubectl(other);
    expect(conflicting).toMatchObject({ code: 1, stdout: '' });
    expect(conflicting.stderr).toMatch(
      /^error: Apply failed with 1 conflict: conflict with "kubectl": \.data\.key\nPlease review the fields above/,
    );
    expect(await kubectl([...other, '--force-conflicts'])).toEqual({
      code: 0,
      stdout: 'configmap/shared serverside-applied\n',
      stderr: '',
    });
    expect(await kubectl(['get', 'configmap', 'shared', '-o', 'jsonpath={.data.key}'])).toEqual({
      code: 0,
      stdout: 'two',
      stderr: '',
    });
  });
});
