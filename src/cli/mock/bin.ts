// The entry point of the `partner-payments-mock` bin: runs `serve` or `trigger`, and turns every
// error into one line and an exit code.
import { UsageError } from '../shared/args.js';
import { MOCK_USAGE, parseMockArgs } from './args.js';
import { CliError, serve } from './serve.js';
import { TriggerError, trigger } from './trigger.js';

/** The bin: `partner-payments-mock [serve options]` or `partner-payments-mock trigger <event_kind>`. */
async function main(): Promise<void> {
  const args = parseMockArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(MOCK_USAGE);
    return;
  }
  if (args.command === 'trigger') {
    const { eventId, paymentId } = await trigger(args.mockUrl, args.eventKind);
    process.stderr.write(`${args.eventKind} emitted for payment ${paymentId}\n`);
    process.stdout.write(`${eventId}\n`);
    return;
  }
  await serve(args);
}

main().catch((error: unknown) => {
  // People get one line, never a stack: a usage mistake (2) or a failure they can act on (1).
  if (error instanceof UsageError) {
    process.stderr.write(`partner-payments-mock: ${error.message}\n\n${MOCK_USAGE}`);
    process.exit(2);
  }
  const known = error instanceof CliError || error instanceof TriggerError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`partner-payments-mock: ${known ? message : `unexpected error: ${message}`}\n`);
  process.exit(1);
});
