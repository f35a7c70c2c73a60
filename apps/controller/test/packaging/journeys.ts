/**
 * The "project of your own" of a guide (docs/hooks.md, docs/plugins.md), as its reader follows it:
 * in an empty folder, the files the page shows (every block annotated `file`, under the file's
 * name), then the page's `project` blocks in order, each shell block run as written with bash. The
 * commands come from the page itself, so page and test cannot drift; npm finds the packages through
 * its configuration in the environment it is given, never through the commands.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
// The pages are read with the docs' tests' own parser, so the annotations mean one thing. The docs
// project depends on this one (it runs the packages), so importing it by package name would be a
// circle; a test-only import of one file instead.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { codeBlocks, isShell, type CodeBlock } from '../../../docs/test/support/markdown.ts';
import { run, type Finished } from './consumer.ts';

export interface JourneyStep {
  /** `docs/page.md:line` */
  at: string;
  /** The commands as the page shows them. */
  commands: string;
  finished: Finished;
}

export interface Journey {
  steps: JourneyStep[];
  /** The output of the background commands (started, read until their READY line, then stopped). */
  background: JourneyStep[];
}

export interface JourneyOptions {
  /** Lines of the page's commands left out, e.g. `npm pkg set type=module` for a CommonJS project. */
  omitLines?: readonly string[];
}

const where = (block: CodeBlock): string => `${block.page}:${block.line}`;

/** Every block of the page that makes its project: the files it shows and its `project` steps. */
export function projectBlocks(page: string): { files: CodeBlock[]; steps: CodeBlock[] } {
  const blocks = codeBlocks(page);
  return {
    files: blocks.filter((block) => block.annotation?.kind === 'file'),
    steps: blocks.filter((block) => block.annotation?.kind === 'project'),
  };
}

/** Follows `page` in `folder` (empty, outside the repository); stops at the first failing step. */
export async function followGuide(
  page: string,
  folder: string,
  env: NodeJS.ProcessEnv,
  options: JourneyOptions = {},
): Promise<Journey> {
  const { files, steps } = projectBlocks(page);
  for (const block of files) {
    if (block.annotation?.kind !== 'file') continue;
    await writeFile(join(folder, basename(block.annotation.path)), block.body);
  }
  const journey: Journey = { steps: [], background: [] };
  for (const block of steps) {
    if (block.annotation?.kind !== 'project') continue;
    if (block.annotation.save !== undefined) {
      await writeFile(join(folder, block.annotation.save), block.body);
      continue;
    }
    if (!isShell(block)) throw new Error(`${where(block)}: a project block is a shell block or names a file`);
    const commands = block.body
      .split('\n')
      .filter((line) => !(options.omitLines ?? []).includes(line))
      .join('\n');
    const step = { at: where(block), commands };
    if (block.annotation.ready === undefined) {
      const finished = await run('bash', ['-e', '-c', commands], folder, env);
      journey.steps.push({ ...step, finished });
      if (finished.code !== 0) break;
    } else {
      const finished = await runUntilReady(commands, block.annotation.ready, folder, env);
      journey.background.push({ ...step, finished });
      if (finished.code !== 0) break;
    }
  }
  return journey;
}

/**
 * Runs `commands` in their own process group until a line of their output contains `ready`, then
 * stops the group with SIGTERM. Code 0 when the line came and they stopped; otherwise never 0.
 */
async function runUntilReady(
  commands: string,
  ready: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Finished> {
  const child = spawn('bash', ['-e', '-c', commands], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const sawReady = new Promise<boolean>((resolve) => {
    const check = (): void => {
      if (`${stdout}\n${stderr}`.split('\n').some((line) => line.includes(ready))) resolve(true);
    };
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), check()));
    child.stderr.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), check()));
    void exited.then(() => resolve(false));
  });
  const ok = await sawReady;
  if (ok && child.pid !== undefined) {
    const group = child.pid;
    process.kill(-group, 'SIGTERM');
    // A command that does not stop on SIGTERM fails the step instead of outliving the test.
    const kill = setTimeout(() => process.kill(-group, 'SIGKILL'), 30_000);
    const [, signal] = await exited;
    clearTimeout(kill);
    if (signal === 'SIGKILL') return { code: null, stdout, stderr: `${stderr}\ndid not stop on SIGTERM` };
    return { code: 0, stdout, stderr };
  }
  const [code] = await exited;
  return {
    code: code === 0 ? null : code,
    stdout,
    stderr: `${stderr}\nexited before a line with "${ready}"`,
  };
}
