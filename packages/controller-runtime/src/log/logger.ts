import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger } from 'pino';
import { consoleDestination } from './console-format.ts';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['console', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /** The program's name, on every line as `component`. */
  component: string;
  level?: LogLevel;
  /** `json` (default) or `console` (see console-format.ts). */
  format?: LogFormat;
  /** Colour the level of console lines. Default false. */
  colour?: boolean;
  /** Where the lines go; standard output by default. */
  destination?: DestinationStream;
}

/**
 * The process logger: one JSON object per line, `level` as a word, `time` in ISO 8601, the
 * component name on every line; or the same records as console lines for people.
 */
export function createLogger(options: LoggerOptions): Logger {
  const settings = {
    level: options.level ?? 'info',
    base: { component: options.component },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (options.format === 'console') {
    const target = options.destination ?? process.stdout;
    return pino(settings, consoleDestination(target, { colour: options.colour ?? false }));
  }
  // Standard output itself, not pino's default asynchronous writer to file descriptor 1: writes to
  // a pipe are synchronous on Linux, and the CLI flushes process.stdout before it exits, so the
  // last lines (`stopped`) are not lost when the reader of the pipe is slow.
  return pino(settings, options.destination ?? process.stdout);
}

/**
 * The fields that tie a log line to the work it belongs to, e.g. the controller, the object as
 * `namespace/name` and the reconcile's id.
 */
export type LogContext = Readonly<Record<string, string | undefined>>;

/** A child logger carrying the given context on every line (unset fields are left out). */
export function withContext(logger: Logger, context: LogContext): Logger {
  const fields = Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined));
  return logger.child(fields);
}

/** A fresh id for one reconcile, so its log lines can be grouped. */
export function newReconcileId(): string {
  return randomUUID();
}
