/**
 * A project outside this repository that uses Scoby as a user would: the publishable packages packed
 * by scripts/pack-packages.mjs and installed from the tarballs with `npm install --omit=dev` as the
 * Dockerfile's build stage does (third-party packages from the npm cache, else the registry), then run
 * with plain `node`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPOSITORY = fileURLToPath(new URL('../../../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./consumer/', import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a failure is an answer (code, output), not an exception. */
export async function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Finished> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, {
      cwd,
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? null, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** `node <args>` with this test's Node and no loader: no tsx, no --import, no --conditions. */
export function node(args: string[], cwd: string): Promise<Finished> {
  return run(process.execPath, args, cwd);
}

export function spawnNode(args: string[], cwd: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function ok(step: string, finished: Finished): string {
  if (finished.code !== 0)
    throw new Error(`${step} exited ${finished.code}:\n${finished.stderr}${finished.stdout}`);
  return finished.stdout;
}

/** Builds and packs the publishable packages into `folder`; the tarballs' paths. */
export async function packPackages(folder: string): Promise<string[]> {
  const out = ok(
    'pack-packages',
    await node([join(REPOSITORY, 'scripts/pack-packages.mjs'), folder], REPOSITORY),
  );
  return out.split('\n').filter((line) => line.endsWith('.tgz'));
}

/** An empty ES-module project with the tarballs installed for production, and the consumer fixtures. */
export async function installConsumer(folder: string, tarballs: string[]): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'package.json'),
    '{ "name": "consumer", "private": true, "type": "module" }\n',
  );
  ok(
    'npm install',
    await run(
      'npm',
      [
        'install',
        '--omit=dev',
        '--ignore-scripts',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...tarballs,
      ],
      folder,
    ),
  );
  await cp(FIXTURES, folder, { recursive: true });
}

/** The next stdout line of `child` that `accept` returns a value for. */
export function lineOf<T>(child: ChildProcess, accept: (line: string) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let output = '';
    const onExit = (code: number | null): void =>
      reject(new Error(`exited ${code} before the expected line; stdout:\n${output}`));
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const found = accept(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (found !== undefined) {
          child.stdout?.off('data', onData);
          child.off('exit', onExit);
          resolve(found);
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}
