/**
 * The shell blocks of the operations guides, run as written: the install, upgrade and uninstall
 * commands a person copies are the commands the lifecycle test runs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPOSITORY_ROOT } from '../../src/paths.ts';
import { HELM, KUBECTL } from './tools.ts';

/** The ```sh blocks of the section under `heading` (a whole line such as `### Helm`) of docs/`file`,
 *  up to the next heading of the same or a higher level. */
export function shellBlocks(file: string, heading: string): string[] {
  const lines = readFileSync(join(REPOSITORY_ROOT, 'docs', file), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`docs/${file} has no heading ${JSON.stringify(heading)}`);
  const level = heading.indexOf(' ');
  const blocks: string[] = [];
  let block: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (block !== undefined) {
      if (line === '```') {
        blocks.push(block.join('\n'));
        block = undefined;
      } else block.push(line);
      continue;
    }
    const ownLevel = /^(#+) /.exec(line)?.[1]?.length;
    if (ownLevel !== undefined && ownLevel <= level) break;
    if (line === '```sh') block = [];
  }
  if (blocks.length === 0) throw new Error(`docs/${file} § ${heading} has no sh block`);
  return blocks;
}

/** Runs a documented block with bash (-eu -o pipefail), helm and kubectl of the pinned builds first on
 *  PATH and KUBECONFIG set; its output, or an error with it when a command fails. Asynchronous, so that
 *  servers of the test process (a hook) keep answering while it runs. */
export function runDocumented(block: string, options: { kubeconfig: string; cwd?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', block], {
      cwd: options.cwd ?? REPOSITORY_ROOT,
      env: {
        PATH: [dirname(HELM), dirname(KUBECTL), process.env.PATH ?? ''].join(':'),
        HOME: process.env.HOME ?? '',
        KUBECONFIG: options.kubeconfig,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) =>
      status === 0
        ? resolve(output)
        : reject(new Error(`documented block failed (${status}):\n${block}\n---\n${output}`)),
    );
  });
}
