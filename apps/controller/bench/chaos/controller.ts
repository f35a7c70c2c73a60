/**
 * The controller as it runs in production: `node bin/scoby.js run` in a process of its own, which
 * the harness can SIGKILL. Its JSON log lines tell when it started and when it became the leader;
 * error lines are tallied by message. An exit the harness did not ask for is a crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SCOBY_NAMESPACE } from '../world.ts';

const SCOBY_BIN = fileURLToPath(new URL('../../bin/scoby.js', import.meta.url));
export const STARTED = 'scoby controller started';
export const STARTED_LEADING = 'started leading';
const STDERR_KEPT = 8 * 1024;

export interface ControllerSettings {
  kubeconfigFile: string;
  leaderElect: boolean;
  concurrency: number;
  /** More flags for `scoby run`, e.g. `--graceful-shutdown-timeout`. */
  extraArgs?: readonly string[];
}

/** How a process ended after SIGTERM. */
export interface Termination {
  /** From SIGTERM to the exit. */
  ms: number;
  code: number | null;
  /** SIGKILL when it had to be killed after the patience. */
  signal: NodeJS.Signals | null;
}

export interface Crash {
  controller: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of what the process wrote on stderr. */
  stderr: string;
}

interface LogLine {
  level?: string;
  msg?: string;
  reason?: string;
  message?: string;
  instance?: string;
  opsPort?: number;
}

export class ScobyRunChild {
  readonly name: string;
  readonly startedAt = Date.now();
  /** Error and fatal log lines by message and reason, with the first line's detail. */
  readonly errors = new Map<string, { count: number; example: string }>();
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  readonly #seen = new Map<string, number>();
  readonly #waiters: { message: string; resolve: (at: number) => void; reject: (error: Error) => void }[] =
    [];
  #opsPort: number | undefined;
  #stopping = false;
  #stderr = '';
  #crash: Crash | undefined;

  constructor(name: string, settings: ControllerSettings) {
    this.name = name;
    this.#child = spawn(
      process.execPath,
      [
        SCOBY_BIN,
        'run',
        '--kubeconfig',
        settings.kubeconfigFile,
        settings.leaderElect ? '--leader-elect' : '--no-leader-elect',
        '--concurrency',
        String(settings.concurrency),
        '--metrics-bind-address',
        '127.0.0.1:0',
        '--log-level',
        'info',
        ...(settings.extraArgs ?? []),
      ],
      {
        env: { ...process.env, SCOBY_NAMESPACE, CLUSTER_DOMAIN: 'cluster.local' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    createInterface({ input: this.#child.stdout! }).on('line', (line) => this.#onLogLine(line));
    this.#child.stderr!.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    this.#exited = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        if (!this.#stopping) {
          this.#crash = { controller: name, code, signal, stderr: this.#stderr };
        }
        for (const waiter of this.#waiters.splice(0)) {
          waiter.reject(new Error(`controller ${name} exited (code ${code}, signal ${signal})`));
        }
        resolve();
      });
    });
  }

  get pid(): number {
    return this.#child.pid ?? -1;
  }

  /** Set when the process exited without being told to. */
  get crash(): Crash | undefined {
    return this.#crash;
  }

  /** When `message` was first logged (epoch ms), waiting for it up to `timeoutMs`. */
  waitForLog(message: string, timeoutMs: number): Promise<number> {
    const seen = this.#seen.get(message);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`controller ${this.name} did not log "${message}" within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiters.push({
        message,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  /**
   * A counter of /metrics, summed over its series (those whose sample line `select` keeps);
   * undefined before the ops server is up.
   */
  async metric(name: string, select: (line: string) => boolean = () => true): Promise<number | undefined> {
    if (this.#opsPort === undefined) return undefined;
    const text = await (await fetch(`http://127.0.0.1:${this.#opsPort}/metrics`)).text();
    return text
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .filter(select)
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  }

  /** GET of the ops server's `path` (e.g. /healthz); undefined before the ops server is up. */
  async ops(path: string): Promise<{ status: number; body: string } | undefined> {
    if (this.#opsPort === undefined) return undefined;
    const response = await fetch(`http://127.0.0.1:${this.#opsPort}${path}`);
    return { status: response.status, body: await response.text() };
  }

  /** Resident set size now, from /proc (Linux); undefined once the process is gone. */
  async rssMiB(): Promise<number | undefined> {
    try {
      const status = await readFile(`/proc/${this.pid}/status`, 'utf8');
      const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
      return kib === undefined ? undefined : Number(kib) / 1024;
    } catch {
      return undefined;
    }
  }

  /** SIGKILL: no shutdown code runs, the Lease stays held, requests in flight are cut. */
  async kill(): Promise<void> {
    this.#stopping = true;
    this.#child.kill('SIGKILL');
    await this.#exited;
  }

  /** SIGTERM, the graceful stop; a process that has not exited after `patienceMs` is killed. */
  async stop(patienceMs = 30_000): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    await this.terminate(patienceMs);
  }

  /** SIGTERM and how long the process took to exit; SIGKILL after `patienceMs`. */
  async terminate(patienceMs: number): Promise<Termination> {
    this.#stopping = true;
    const signalled = Date.now();
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), patienceMs);
    await this.#exited;
    clearTimeout(timer);
    return { ms: Date.now() - signalled, code: this.#child.exitCode, signal: this.#child.signalCode };
  }

  #onLogLine(text: string): void {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return;
    }
    const message = line.msg ?? '';
    if (line.level === 'error' || line.level === 'fatal') {
      const key = line.reason === undefined ? message : `${message} (${line.reason})`;
      const tally = this.errors.get(key) ?? {
        count: 0,
        example: `${line.instance ?? ''} ${line.message ?? ''}`,
      };
      this.errors.set(key, { ...tally, count: tally.count + 1 });
    }
    if (message === STARTED) this.#opsPort = line.opsPort;
    if (!this.#seen.has(message)) this.#seen.set(message, Date.now());
    for (const waiter of this.#waiters.filter((candidate) => candidate.message === message)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(Date.now());
    }
  }
}
