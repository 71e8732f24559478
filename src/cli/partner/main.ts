// The `partner-payments` bin's dispatch: parses the command line, runs doctor or verify with their
// output, and turns every error into one line and an exit code (2 usage, 3 could not start).
import { VERSION } from '../../index.js';
import { UsageError } from '../shared/args.js';
import { PARTNER_USAGE, parsePartnerArgs } from './args.js';
import { runDoctor } from './doctor/run.js';
import { type Io, Output, Scrubber } from './output.js';
import { type RunOptions, runVerify, VerifyAbort } from './verify/run.js';

/** Options that are not flags: the bin handles signals; tests poll faster. */
export type MainOptions = RunOptions;

/** Runs the bin with `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: string[], io: Io, options: MainOptions = {}): Promise<number> {
  const scrubber = new Scrubber();
  let args: ReturnType<typeof parsePartnerArgs>;
  try {
    args = parsePartnerArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`partner-payments: ${error.message}\n\n${PARTNER_USAGE}`);
    return 2;
  }
  if (args.command === 'help') {
    io.stdout(PARTNER_USAGE);
    return 0;
  }
  if (args.command === 'version') {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  scrubber.add(args.connection.clientSecret.value);
  scrubber.add(args.webhookSecret.value);
  const out = new Output(io, args.json, scrubber);
  try {
    if (args.command === 'doctor') return await runDoctor(args, out);
    return await runVerify(args, out, options);
  } catch (error) {
    if (error instanceof VerifyAbort) {
      out.error(`partner-payments verify: could not start: ${error.message}`);
      out.document({ command: 'verify', ok: false, aborted: error.message });
      return 3;
    }
    const message = error instanceof Error ? error.message : String(error);
    out.error(`partner-payments: unexpected error: ${message}`);
    return 1;
  }
}
