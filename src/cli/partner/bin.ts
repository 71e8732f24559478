// The entry point of the `partner-payments` bin (doctor, verify): runs main() with the process's
// arguments, streams and environment, and exits with its code once stdout is flushed.

import { processIo } from '../shared/io.js';
import { main } from './main.js';

/** Exits once what was written reached the pipe (a bare process.exit can cut a piped stdout). */
function exit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2), processIo, { handleSignals: true }).then(exit, (error: unknown) => {
  process.stderr.write(`partner-payments: unexpected error: ${String(error)}\n`);
  exit(1);
});
