import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../log/logger.ts';

export interface CapturedLogs {
  /** A logger as createLogger makes it (JSON lines, level as a word), writing here instead of stdout. */
  logger: Logger;
  /** Every line so far, parsed. */
  lines(): Record<string, unknown>[];
}

/** A logger at `level` (default debug), naming `component` on every line, whose lines a test can read back. */
export function captureLogs(
  level: 'debug' | 'info' | 'warn' | 'error' = 'debug',
  component = 'controller',
): CapturedLogs {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    logger: createLogger({ component, level, destination }),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
