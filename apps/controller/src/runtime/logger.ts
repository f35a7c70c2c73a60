import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogFormat, LogLevel } from './config.ts';
import { consoleDestination } from './console-format.ts';

export type { Logger } from 'pino';
export type { LogFormat } from './config.ts';

export interface LoggerOptions {
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
export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    base: { component: 'scoby-controller' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (options.format === 'console') {
    const target = options.destination ?? process.stdout;
    return pino(settings, consoleDestination(target, { colour: options.colour ?? false }));
  }
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}

/** The fields that tie a log line to the work it belongs to. */
export interface LogContext {
  registration?: string;
  /** The instance as `namespace/name`. */
  instance?: string;
  reconcileId?: string;
}

/** A child logger carrying the given context on every line (unset fields are left out). */
export function withContext(logger: Logger, context: LogContext): Logger {
  const fields = Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined));
  return logger.child(fields);
}

/** A fresh id for one reconcile, so its log lines can be grouped. */
export function newReconcileId(): string {
  return randomUUID();
}
