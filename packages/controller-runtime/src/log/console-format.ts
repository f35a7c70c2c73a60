/**
 * The console log format: one line per record, as zap's console encoder writes it (the format
 * controller-runtime operators read in a terminal): time, level in capitals, message, then the
 * remaining fields as compact JSON.
 *
 *   2026-11-23T19:03:37.070Z	INFO	child created	{"instance":"default/hello","child":"Deployment default/greeter-hello"}
 */
import { Writable } from 'node:stream';

/** Fields every line carries in JSON; the console line has no room for the constant ones. */
const OMITTED = new Set(['level', 'time', 'msg', 'component', 'pid', 'hostname']);

const LEVEL_COLOURS: Readonly<Record<string, string>> = {
  TRACE: '\u001b[90m',
  DEBUG: '\u001b[35m',
  INFO: '\u001b[34m',
  WARN: '\u001b[33m',
  ERROR: '\u001b[31m',
  FATAL: '\u001b[31m',
};
const RESET = '\u001b[0m';

/** One console line (without the newline) for one JSON record as the JSON logger writes it. */
export function consoleLine(record: Readonly<Record<string, unknown>>, colour = false): string {
  const level = String(record.level ?? '').toUpperCase();
  const fields = Object.fromEntries(Object.entries(record).filter(([key]) => !OMITTED.has(key)));
  const parts = [
    String(record.time ?? ''),
    colour ? `${LEVEL_COLOURS[level] ?? ''}${level}${RESET}` : level,
    String(record.msg ?? ''),
  ];
  if (Object.keys(fields).length > 0) parts.push(JSON.stringify(fields));
  return parts.join('\t');
}

/**
 * A destination that turns the JSON lines the logger writes into console lines on `target`.
 * Writes straight through, so a line is out before the process may exit.
 */
export function consoleDestination(
  target: { write(text: string): unknown },
  options: { colour?: boolean } = {},
): Writable {
  let partial = '';
  return new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      const text = lines
        .filter((line) => line !== '')
        .map((line) => `${consoleLine(JSON.parse(line) as Record<string, unknown>, options.colour)}\n`)
        .join('');
      if (text !== '') target.write(text);
      done();
    },
  });
}
