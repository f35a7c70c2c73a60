/**
 * One control-plane process: started with its output in a log file, watched so that an early exit is
 * reported with the component's name and last log lines, and stopped by PID (SIGTERM, then SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';

const LAST_LINES = 25;
const STOP_GRACE_MS = 5_000;

export class ComponentFailed extends Error {
  constructor(component: string, what: string, logFile: string) {
    super(`${component} ${what}; its last log lines (${logFile}):\n${lastLines(logFile)}`);
    this.name = 'ComponentFailed';
  }
}

function lastLines(logFile: string): string {
  try {
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
    return lines
      .slice(-LAST_LINES)
      .map((line) => `  ${line}`)
      .join('\n');
  } catch {
    return '  (no log)';
  }
}

export class Component {
  readonly name: string;
  readonly logFile: string;
  readonly #child: ChildProcess;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly #exited: Promise<void>;

  constructor(name: string, binary: string, args: readonly string[], logFile: string) {
    this.name = name;
    this.logFile = logFile;
    const out = openSync(logFile, 'a');
    try {
      // A process group of its own: Ctrl-C in a terminal signals the whole foreground group, and
      // the component must outlive its parent's graceful stop (which still writes to the API
      // server, e.g. releasing its Lease). The parent stops it; the reaper kills it if the parent dies.
      this.#child = spawn(binary, args, { stdio: ['ignore', out, out], detached: true });
    } finally {
      closeSync(out);
    }
    this.#exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        resolve();
      });
      this.#child.once('error', (error) => {
        this.#exit = { code: null, signal: null };
        this.spawnError = error;
        resolve();
      });
    });
  }

  spawnError: Error | undefined;

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get running(): boolean {
    return this.#exit === undefined;
  }

  /** Throws ComponentFailed when the process has exited. */
  assertRunning(): void {
    if (this.#exit === undefined) return;
    const how = this.spawnError
      ? `could not start (${this.spawnError.message})`
      : `exited with ${this.#exit.signal ?? `code ${this.#exit.code}`}`;
    throw new ComponentFailed(this.name, how, this.logFile);
  }

  /** Polls `ready` until it is true; fails early when the process exits, or after `timeoutMs`. */
  async waitUntil(what: string, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastError = '';
    for (;;) {
      this.assertRunning();
      try {
        if (await ready()) return;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
      }
      this.assertRunning();
      if (Date.now() > deadline) {
        throw new ComponentFailed(
          this.name,
          `did not become ${what} within ${timeoutMs / 1000} s${lastError ? ` (last error: ${lastError})` : ''}`,
          this.logFile,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async stop(): Promise<void> {
    if (this.#exit !== undefined) return;
    this.#child.kill('SIGTERM');
    const killer = setTimeout(() => this.#child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.#exited;
    clearTimeout(killer);
  }

  /** For exit handlers, where nothing can be awaited. */
  killNow(): void {
    if (this.#exit === undefined) this.#child.kill('SIGKILL');
  }
}
