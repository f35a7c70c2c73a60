/**
 * A stop request for a process that npm started. npm (`npx scoby run`, `npm start`) runs the scoby bin
 * through `sh -c` and forwards SIGTERM and SIGINT to that shell alone (@npmcli/run-script's signal
 * manager); the shell dies of the signal without passing it on, and npm exits. Told to stop that way
 * (`kill <npx's pid>`, `timeout`, a supervisor that signals the process it started), the controller
 * never heard of it and ran on, orphaned. Started by npm, it therefore takes the loss of the parent it
 * started with as a stop request. Under any other parent (a shell with nohup, an init, a container
 * runtime) an orphaned process keeps running, as a process does. npm inside npm (the repository
 * root's `npm start`) is beyond it: a signal to the outer npm alone leaves the inner one, the
 * controller's grandparent, running.
 */
import type { Environment } from '../config/index.ts';

/** How often the parent is looked at: a getppid(2) each time. */
export const PARENT_CHECK_MS = 250;

/** The reason a stop request names when the parent went away. */
export const PARENT_EXITED = 'parent exited';

/** npm sets npm_execpath for every script and exec it runs. */
export function startedByNpm(env: Environment): boolean {
  return (env.npm_execpath ?? '') !== '';
}

export interface ParentWatch {
  /** Resolves with PARENT_EXITED once the parent is another than at the start; never otherwise. */
  exited: Promise<string>;
  stop(): void;
}

/**
 * Watches `parentPid()` (process.ppid) for a change; the watch never holds the process open.
 *
 * A signal to the whole process group (`kill -TERM -<pgid>`, a terminal's Ctrl-C) reaches npm's shell
 * and this process at once, so the shell may be gone before this process has read its own signal:
 * the timer runs before the loop reads delivered signals (libuv: timers, then poll, then check). The
 * change is therefore reported from the check phase of the same turn, after the signals already
 * delivered, and the stop names the signal that was sent.
 */
export function watchParent(parentPid: () => number, intervalMs = PARENT_CHECK_MS): ParentWatch {
  const parent = parentPid();
  let timer: NodeJS.Timeout | undefined;
  let report: NodeJS.Immediate | undefined;
  const exited = new Promise<string>((resolve) => {
    timer = setInterval(() => {
      if (parentPid() === parent) return;
      clearInterval(timer);
      report = setImmediate(() => resolve(PARENT_EXITED));
      report.unref();
    }, intervalMs);
    timer.unref();
  });
  return {
    exited,
    stop: () => {
      clearInterval(timer);
      clearImmediate(report);
    },
  };
}
