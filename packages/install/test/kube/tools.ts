/** helm and kubectl of the pinned builds (npm run kube-binaries), run as a person would run them. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { locateBinaries, locateHelm } from '@scoby/kube-control-plane';
import { parseAllDocuments } from 'yaml';
import { REPOSITORY_ROOT } from '../../src/paths.ts';

export type KubeObject = Record<string, unknown> & {
  kind: string;
  metadata: { name: string; namespace?: string; [field: string]: unknown };
};

function binary(located: { ok: true; path: string } | { ok: false; message: string }): string {
  if (!located.ok) throw new Error(located.message);
  return located.path;
}

const kubectlFound = locateBinaries();
export const HELM = binary(locateHelm());
export const KUBECTL = binary(
  kubectlFound.ok ? { ok: true, path: join(kubectlFound.folder, 'kubectl') } : kubectlFound,
);
export const CHART = join(REPOSITORY_ROOT, 'deploy/helm/scoby');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  input?: string;
  /** Default: the repository root. */
  cwd?: string;
  /** Added to PATH and HOME. */
  env?: Record<string, string>;
}

export function run(command: string, args: string[], options: RunOptions = {}): Run {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? REPOSITORY_ROOT,
    encoding: 'utf8',
    input: options.input,
    maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** stdout of a command that must succeed; its stderr otherwise. */
export function succeed(command: string, args: string[], options?: RunOptions): string {
  const result = run(command, args, options);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return result.stdout;
}

export function objectsOf(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

/** `helm template` of the chart in `namespace` with `--set` values. */
export function helmTemplate(namespace: string, ...set: string[]): KubeObject[] {
  return objectsOf(
    succeed(HELM, [
      'template',
      'scoby',
      CHART,
      '--namespace',
      namespace,
      ...set.flatMap((value) => ['--set', value]),
    ]),
  );
}

export const identity = (object: KubeObject): string =>
  `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
