/**
 * The node's supervisor (e2e/images/node/scoby-node-supervise, sourced by the node's entrypoint): a
 * component that exits is started again after a delay, with a line saying how it exited; one that
 * keeps exiting right after its restarts is given up, which stops the node; a check holds a restart
 * back (the API server's clients restart once it is ready); SIGTERM stops every component without a
 * restart. Small shell programs stand in for the components, with delays of a tenth of a second.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const LIBRARY = fileURLToPath(new URL('../../images/node/scoby-node-supervise', import.meta.url));

interface Node {
  /** The node's output so far, one entry per line. */
  lines: string[];
  folder: string;
  /** Resolves once a line matches; fails after 10 s with the output so far. */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  /** The process id the supervisor of `name` wrote last (waits for its first). */
  pid(name: string): Promise<number>;
  exited: Promise<number | null>;
  process: ChildProcess;
}

const started: Node[] = [];
afterEach(() => {
  for (const node of started.splice(0)) {
    // The script, its supervisors and their components: a process group of their own.
    if (node.process.exitCode === null) process.kill(-node.process.pid!, 'SIGKILL');
    rmSync(node.folder, { recursive: true, force: true });
  }
});

/**
 * Runs `body` as scoby-node does: the library sourced, then what `body` supervises; the script ends
 * as the entrypoint does, when a supervisor gives up (status 1) or on SIGTERM (status 0).
 */
function startNode(body: string, settings: Record<string, string> = {}): Node {
  const folder = mkdtempSync(join(tmpdir(), 'scoby-supervise-'));
  const script = `
set -euo pipefail
say() { echo "scoby-node: $*"; }
source ${JSON.stringify(LIBRARY)}
trap 'stop_supervised; exit 0' TERM
${body}
echo "scoby-node: ready"
set +e
wait -n "\${supervisors[@]}"
stop_supervised
exit 1
`;
  const child = spawn('/bin/bash', ['-c', script], {
    env: {
      PATH: process.env.PATH,
      SCOBY_NODE_LOG_DIR: join(folder, 'log'),
      SCOBY_NODE_RUN_DIR: join(folder, 'run'),
      SCOBY_NODE_RESTART_DELAYS: '0.1 0.2',
      ...settings,
    },
    cwd: folder,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const lines: string[] = [];
  const waiting = new Set<() => void>();
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const check of waiting) check();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const node: Node = {
    lines,
    folder,
    process: child,
    exited,
    pid: async (name) => {
      for (let tries = 0; ; tries += 1) {
        const text = await readFile(join(folder, 'run', `${name}.pid`), 'utf8').catch(() => '');
        if (/^\d+\n$/.test(text)) return Number(text);
        if (tries === 100) throw new Error(`no process id of ${name} after 5 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no line matching ${pattern} within 10 s; output:\n${lines.join('\n')}`));
        }, 10_000);
        const check = (): void => {
          for (const line of lines) {
            const match = pattern.exec(line);
            if (match !== null) {
              clearTimeout(timer);
              waiting.delete(check);
              resolve(match);
              return;
            }
          }
        };
        waiting.add(check);
        check();
      }),
  };
  started.push(node);
  return node;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the node supervisor', () => {
  it('starts a killed component again, saying how it exited, and names the new process', async () => {
    const node = startNode('supervise worker -- sleep 30');
    await node.line(/^scoby-node: ready$/);
    const first = await node.pid('worker');
    expect(alive(first)).toBe(true);
    process.kill(first, 'SIGKILL');
    const restarted = await node.line(/^scoby-node: worker restarted \(pid (\d+)\)$/);
    expect(node.lines).toContain(
      'scoby-node: worker exited (killed by SIGKILL) after 0 s; restart 1 of 2 in 0.1 s',
    );
    expect(Number(restarted[1])).toBe(await node.pid('worker'));
    expect(Number(restarted[1])).not.toBe(first);
    expect(alive(Number(restarted[1]))).toBe(true);
    // The node goes on: only giving a component up ends it.
    expect(node.process.exitCode).toBeNull();
  });

  it('gives up a component that exits right after each of its restarts, and the node stops with its log', async () => {
    const node = startNode(`
supervise steady -- sleep 30
supervise broken -- sh -c 'echo "cannot start: port taken"; exit 3'`);
    expect(await node.exited).toBe(1);
    const fromBroken = node.lines.filter((line) => !line.startsWith('scoby-node: ready'));
    expect(fromBroken).toEqual([
      'scoby-node: broken exited (status 3) after 0 s; restart 1 of 2 in 0.1 s',
      expect.stringMatching(/^scoby-node: broken restarted \(pid \d+\)$/),
      'scoby-node: broken exited (status 3) after 0 s; restart 2 of 2 in 0.2 s',
      expect.stringMatching(/^scoby-node: broken restarted \(pid \d+\)$/),
      'scoby-node: broken exited (status 3) after each of its 2 restarts in a row within 60 s: the node stops; the end of its log:',
      'cannot start: port taken',
      'cannot start: port taken',
      'cannot start: port taken',
    ]);
    // The other component was stopped with the node.
    expect(alive(await node.pid('steady'))).toBe(false);
  });

  it('counts restarts afresh after a run that lasted SCOBY_NODE_STEADY_S', async () => {
    const node = startNode("supervise slow -- sh -c 'sleep 1.1; exit 2'", {
      SCOBY_NODE_RESTART_DELAYS: '0.1',
      SCOBY_NODE_STEADY_S: '1',
    });
    await node.line(/^scoby-node: slow restarted/);
    await node.line(/^scoby-node: slow exited \(status 2\) after 1 s; restart 1 of 1/);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    const exits = node.lines.filter((line) => line.startsWith('scoby-node: slow exited'));
    // With one restart allowed, the second exit would have stopped the node had the count not started afresh.
    expect(exits).toEqual(
      Array(exits.length).fill('scoby-node: slow exited (status 2) after 1 s; restart 1 of 1 in 0.1 s'),
    );
    expect(exits.length).toBeGreaterThanOrEqual(2);
    expect(node.process.exitCode).toBeNull();
  });

  it('holds a restart back until its check succeeds', async () => {
    const node = startNode(`
ready_file=$PWD/api-ready
api_ready() { [ -f "$ready_file" ]; }
supervise client --when api_ready -- sleep 30`);
    await node.line(/^scoby-node: ready$/);
    process.kill(await node.pid('client'), 'SIGTERM');
    await node.line(/^scoby-node: client exited \(killed by SIGTERM\)/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(node.lines.filter((line) => line.includes('client restarted'))).toEqual([]);
    writeFileSync(join(node.folder, 'api-ready'), '');
    await node.line(/^scoby-node: client restarted/);
  });

  it('stops every component on SIGTERM, without restarting any, even one waiting for its restart', async () => {
    const node = startNode(
      `
supervise running -- sleep 30
supervise waiting -- sh -c 'exit 1'`,
      { SCOBY_NODE_RESTART_DELAYS: '30' },
    );
    await node.line(/^scoby-node: waiting exited \(status 1\) after 0 s; restart 1 of 1 in 30 s$/);
    const running = await node.pid('running');
    const stopping = Date.now();
    node.process.kill('SIGTERM');
    expect(await node.exited).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(5000);
    expect(alive(running)).toBe(false);
    expect(node.lines.filter((line) => line.includes('restarted'))).toEqual([]);
  });
});
