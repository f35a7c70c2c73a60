/**
 * Runs a documentation page's shell blocks as a reader would, one after the other in one terminal:
 * exported variables and the working folder carry over from block to block. The working folder
 * starts as a copy of the clone made of links to its top-level entries, so commands find the
 * repository's files (`apps/controller/samples/…`, `npx scoby`) while what they write (kubeconfigs,
 * saved manifests) stays out of the clone.
 */
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPOSITORY, type CodeBlock } from './markdown.ts';
import { background, run, startEmbedded, type Background, type Finished } from './scoby.ts';

const NOT_LINKED = new Set(['.git', '.nx', '.scoby']);

export interface PageSession {
  folder: string;
  /** Runs a shell block; its exports and `cd` hold for the next ones. */
  run(block: CodeBlock): Promise<Finished>;
  /** Starts a long-running block and waits for a line of its output containing `ready`. */
  start(block: CodeBlock, ready: string): Promise<Background>;
  save(name: string, body: string): Promise<void>;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** A folder holding kubectl, put first on PATH. */
  kubectlFolder: string;
  /** `scoby run --embedded` to start before the first block, or none when the page starts its own. */
  cluster: 'none' | 'memory' | 'kwok';
  sample: boolean;
  log: (line: string) => void;
}

export async function openPageSession(options: SessionOptions): Promise<PageSession> {
  const root = await mkdtemp(join(tmpdir(), 'scoby-docs-page-'));
  const folder = join(root, 'clone');
  const home = join(root, 'home');
  await mkdir(folder);
  await mkdir(join(home, '.kube'), { recursive: true });
  for (const entry of await readdir(REPOSITORY))
    if (!NOT_LINKED.has(entry)) await symlink(join(REPOSITORY, entry), join(folder, entry));
  const state = join(root, 'state.sh');
  await writeFile(state, `cd ${JSON.stringify(folder)}\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: [options.kubectlFolder, dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    HOME: home,
    NO_COLOR: '1',
    LANG: 'C.UTF-8',
    // The page has a HOME of its own; the binaries of `npm run kube-binaries` stay where they were built.
    SCOBY_CACHE_DIR:
      process.env.SCOBY_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'scoby'),
    ...(process.env.KUBEBUILDER_ASSETS ? { KUBEBUILDER_ASSETS: process.env.KUBEBUILDER_ASSETS } : {}),
  };
  const started: Background[] = [];

  if (options.cluster !== 'none') {
    const kubeconfig = join(home, '.kube/config');
    started.push(
      await startEmbedded({
        cluster: options.cluster,
        kubeconfig,
        sample: options.sample,
        cwd: root,
        env: { ...process.env, ...env },
      }),
    );
    env.KUBECONFIG = kubeconfig;
    options.log(`embedded cluster (${options.cluster}) running, KUBECONFIG=${kubeconfig}`);
  }

  const script = (block: CodeBlock, keepState: boolean): string =>
    [
      `source ${JSON.stringify(state)}`,
      'set -eo pipefail',
      block.body,
      ...(keepState ? [`{ export -p; echo "cd $(printf '%q' "$PWD")"; } > ${JSON.stringify(state)}`] : []),
    ].join('\n');

  return {
    folder,
    run: (block) => run('bash', ['-c', script(block, true)], { cwd: folder, env }),
    async start(block, ready) {
      const process = background('bash', ['-c', script(block, false)], { cwd: folder, env });
      started.push(process);
      await process.waitFor(ready, 300_000);
      return process;
    },
    save: (name, body) => writeFile(join(folder, name), body),
    async close() {
      for (const process of started.reverse()) await process.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
