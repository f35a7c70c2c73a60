/**
 * The `scoby` executable. bin/scoby.js loads it (through tsx in the repository); an installed package
 * and the image run its bundle, dist/scoby.mjs (scripts/bundle.mjs).
 */
import { processIo } from './io.ts';
import { runCli } from './program.ts';

/** Longest wait for standard output to drain before the exit. */
const FLUSH_LIMIT_MS = 2_000;

const code = await runCli(process.argv.slice(2), processIo());
// Exit once stdout is flushed, whatever is left open: a stopped controller (or one that outlived its
// grace period) may leave sockets, watches or timers behind, and a stuck reader must not hold the exit.
process.exitCode = code;
setTimeout(() => process.exit(code), FLUSH_LIMIT_MS).unref();
process.stdout.write('', () => process.exit(code));
