/**
 * Processes outlive a test runner that is killed (SIGKILL runs no handler). A small detached watcher
 * polls the parent and, once it is gone, kills the PIDs listed in a file; it exits when the file is
 * removed, which a normal stop does.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';

const WATCHER = `
const fs = require('node:fs');
const [parent, pidFile] = process.argv.slice(1);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
setInterval(() => {
  let pids;
  try { pids = fs.readFileSync(pidFile, 'utf8').split(/\\s+/).filter(Boolean).map(Number); }
  catch { process.exit(0); }
  if (alive(Number(parent))) return;
  for (const pid of pids) { try { process.kill(pid, 'SIGKILL'); } catch {} }
  try { fs.rmSync(pidFile); } catch {}
  process.exit(0);
}, 500);
`;

export class Reaper {
  readonly #pidFile: string;
  readonly #pids = new Set<number>();

  constructor(pidFile: string) {
    this.#pidFile = pidFile;
    writeFileSync(pidFile, '');
    spawn(process.execPath, ['-e', WATCHER, String(process.pid), pidFile], {
      detached: true,
      stdio: 'ignore',
    }).unref();
  }

  watch(pid: number | undefined): void {
    if (pid === undefined) return;
    this.#pids.add(pid);
    writeFileSync(this.#pidFile, [...this.#pids].join('\n'));
  }

  /** The processes were stopped: the watcher exits. */
  dismiss(): void {
    rmSync(this.#pidFile, { force: true });
  }
}
