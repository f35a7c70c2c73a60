/** Runs bin/scoby.js as a child process, as `npx scoby` would, or through npx itself. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/scoby.js', import.meta.url));
/** Where a user types `npx scoby`: npx finds the repository's bin in node_modules/.bin. */
export const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<Finished>;
}

/**
 * `processGroup`: the child leads a process group of its own, as a command started in a terminal
 * does; `process.kill(-pid, 'SIGINT')` then is the terminal's Ctrl-C (the whole group signalled).
 */
export function startScoby(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; processGroup?: boolean; npx?: boolean },
): Running {
  // npx: the machine's npm (on PATH beside this Node) runs the bin through `sh -c`, as for a user.
  const [command, commandArgs] = options.npx
    ? ['npx', ['scoby', ...args]]
    : [process.execPath, [BIN, ...args]];
  const child = spawn(command, commandArgs, {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      ...(options.npx ? { HOME: process.env.HOME ?? '' } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup === true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

export function scoby(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<Finished> {
  return startScoby(args, options).exited;
}

/** One line of the controller's JSON log. */
export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** The JSON log lines among what a process printed. */
export function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Some process of the group `pgid` still runs. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
