import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/runtime/logger.ts';

export interface CapturedLogs {
  /** The controller's own logger (JSON lines, level as a word), writing here instead of stdout. */
  logger: Logger;
  /** Every line so far, parsed. */
  lines(): Record<string, unknown>[];
}

/** A logger at `level` (default debug) whose lines a test can read back. */
export function captureLogs(level: 'debug' | 'info' | 'warn' | 'error' = 'debug'): CapturedLogs {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    logger: createLogger({ level, destination }),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
