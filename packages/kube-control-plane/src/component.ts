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

/** One run of the process: a restart is a new run, with the same binary, arguments and log file. */
interface Run {
  child: ChildProcess;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  spawnError: Error | undefined;
  exited: Promise<void>;
}

export class Component {
  readonly name: string;
  readonly logFile: string;
  readonly #binary: string;
  #args: readonly string[];
  readonly #onSpawn: (pid: number | undefined) => void;
  #run: Run;
  #paused = false;

  /** `onSpawn` hears the PID of every run (the first, and each after kill()/start()). */
  constructor(
    name: string,
    binary: string,
    args: readonly string[],
    logFile: string,
    onSpawn: (pid: number | undefined) => void = () => {},
  ) {
    this.name = name;
    this.logFile = logFile;
    this.#binary = binary;
    this.#args = args;
    this.#onSpawn = onSpawn;
    this.#run = this.#spawn();
  }

  #spawn(): Run {
    const out = openSync(this.logFile, 'a');
    let child: ChildProcess;
    try {
      // A process group of its own: Ctrl-C in a terminal signals the whole foreground group, and
      // the component must outlive its parent's graceful stop (which still writes to the API
      // server, e.g. releasing its Lease). The parent stops it; the reaper kills it if the parent dies.
      child = spawn(this.#binary, this.#args, { stdio: ['ignore', out, out], detached: true });
    } finally {
      closeSync(out);
    }
    const run: Run = { child, exit: undefined, spawnError: undefined, exited: Promise.resolve() };
    run.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        run.exit = { code, signal };
        resolve();
      });
      child.once('error', (error) => {
        run.exit = { code: null, signal: null };
        run.spawnError = error;
        resolve();
      });
    });
    this.#paused = false;
    this.#onSpawn(child.pid);
    return run;
  }

  get spawnError(): Error | undefined {
    return this.#run.spawnError;
  }

  get pid(): number | undefined {
    return this.#run.child.pid;
  }

  get running(): boolean {
    return this.#run.exit === undefined;
  }

  /** Stopped by pause() and not resumed yet. */
  get paused(): boolean {
    return this.#paused;
  }

  /** Throws ComponentFailed when the process has exited. */
  assertRunning(): void {
    const { exit, spawnError } = this.#run;
    if (exit === undefined) return;
    const how = spawnError
      ? `could not start (${spawnError.message})`
      : `exited with ${exit.signal ?? `code ${exit.code}`}`;
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

  /** SIGKILL, as a crash or an OOM kill: no shutdown of its own. Resolves once it has exited. */
  async kill(): Promise<void> {
    if (this.#run.exit !== undefined) return;
    this.#run.child.kill('SIGKILL');
    await this.#run.exited;
    this.#paused = false;
  }

  /**
   * Starts the process again, with the same binary and log file, and the same arguments unless
   * `args` replaces them (for this run and later ones); it must have exited.
   */
  start(args: readonly string[] = this.#args): void {
    if (this.#run.exit === undefined) throw new Error(`${this.name} is still running (PID ${this.pid})`);
    this.#args = args;
    this.#run = this.#spawn();
  }

  /** SIGSTOP: the process keeps its sockets and answers nothing, as a host that froze. */
  pause(): void {
    this.assertRunning();
    this.#run.child.kill('SIGSTOP');
    this.#paused = true;
  }

  /** SIGCONT after pause(). */
  resume(): void {
    if (!this.#paused) return;
    this.#run.child.kill('SIGCONT');
    this.#paused = false;
  }

  async stop(): Promise<void> {
    const run = this.#run;
    if (run.exit !== undefined) return;
    run.child.kill('SIGTERM');
    // A stopped process keeps SIGTERM pending until it runs again.
    this.resume();
    const killer = setTimeout(() => run.child.kill('SIGKILL'), STOP_GRACE_MS);
    await run.exited;
    clearTimeout(killer);
  }

  /** For exit handlers, where nothing can be awaited. */
  killNow(): void {
    if (this.#run.exit === undefined) this.#run.child.kill('SIGKILL');
  }
}
