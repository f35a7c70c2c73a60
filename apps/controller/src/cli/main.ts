/** The `scoby` executable (bin/scoby.js loads this file through tsx). */
import { processIo } from './io.ts';
import { runCli } from './program.ts';

const code = await runCli(process.argv.slice(2), processIo());
// Exit once stdout is flushed: a stopped controller may leave idle sockets or timers behind.
process.stdout.write('', () => process.exit(code));
