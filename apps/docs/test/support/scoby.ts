/** The repository's `scoby` (what `npx scoby` runs in a clone), run and stopped as a docs reader would. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { REPOSITORY } from './markdown.ts';

export const SCOBY = join(REPOSITORY, 'apps/controller/bin/scoby.js');

export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<Finished> {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { cwd: options.cwd ?? REPOSITORY, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

export interface Background {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves with the first line containing `text`; rejects when the process exits first or after `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a long-running command; `stop` sends SIGTERM to its process group and waits for it. */
export function background(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Background {
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPOSITORY,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = once(child, 'exit');
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const check of waiters) check();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.on('exit', () => {
    for (const check of waiters) check();
  });
  return {
    child,
    output: () => output,
    waitFor(text, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`no line with ${JSON.stringify(text)} after ${timeoutMs} ms:\n${output}`)),
          timeoutMs,
        );
        const finish = (error?: Error, line?: string): void => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(line ?? '');
        };
        const check = (): void => {
          const line = output.split('\n').find((candidate) => candidate.includes(text));
          if (line !== undefined) finish(undefined, line);
          else if (child.exitCode !== null || child.signalCode !== null)
            finish(
              new Error(
                `exited (${child.exitCode ?? child.signalCode}) before a line with ${JSON.stringify(text)}:\n${output}`,
              ),
            );
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        await exited;
      }
    },
  };
}

export interface EmbeddedOptions {
  cluster: 'memory' | 'kwok';
  kubeconfig: string;
  sample?: boolean;
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * `scoby run --embedded` with a JSON log and the ops server on a free port, once it runs: the
 * controller started, and with `sample` the sample reconciled.
 */
export async function startEmbedded(options: EmbeddedOptions): Promise<Background> {
  const flags = ['--cluster', options.cluster, '--kubeconfig-out', options.kubeconfig];
  const quiet = ['--metrics-bind-address', '127.0.0.1:0', '--log-format', 'json'];
  const embedded = background(
    process.execPath,
    [SCOBY, 'run', '--embedded', ...flags, ...quiet, ...(options.sample ? ['--sample'] : [])],
    { cwd: options.cwd, env: options.env ?? process.env },
  );
  try {
    await embedded.waitFor(
      options.sample ? '"msg":"sample reconciled"' : '"msg":"scoby controller started"',
      300_000,
    );
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  return embedded;
}
