// The `partner-payments` bin's dispatch: parses the command line, runs doctor or verify with their
// output, or mcp (loaded on demand: it needs the optional peer @modelcontextprotocol/sdk), and
// turns every error into one line and an exit code (2 usage, 3 could not start).
import { VERSION } from '../../index.js';
import { MCP_USAGE, parseMcpArgs } from '../mcp/args.js';
import { UsageError } from '../shared/args.js';
import type { Io } from '../shared/io.js';
import { PARTNER_USAGE, parsePartnerArgs } from './args.js';
import { runDoctor } from './doctor/run.js';
import { Output, Scrubber } from './output.js';
import { type RunOptions, runVerify, VerifyAbort } from './verify/run.js';

/** Options that are not flags: the bin handles signals; tests poll faster. */
export type MainOptions = RunOptions;

/** Runs the bin with `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: string[], io: Io, options: MainOptions = {}): Promise<number> {
  if (argv[0] === 'mcp') return mcp(argv.slice(1), io);
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

/** `partner-payments mcp`: the MCP server, imported only now (with its optional peer). */
async function mcp(argv: string[], io: Io): Promise<number> {
  let args: ReturnType<typeof parseMcpArgs>;
  try {
    args = parseMcpArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`partner-payments mcp: ${error.message}\n\n${MCP_USAGE}`);
    return 2;
  }
  if (args.command === 'help') {
    // stdout only when asked for: on stdio, stdout is the protocol's.
    io.stdout(MCP_USAGE);
    return 0;
  }
  let room: typeof import('../mcp/run.js');
  try {
    room = await import('../mcp/run.js');
  } catch (error) {
    if (!String((error as Error | undefined)?.message).includes('@modelcontextprotocol/sdk')) throw error;
    io.stderr(
      'partner-payments mcp: needs @modelcontextprotocol/sdk (an optional peer dependency of partner-payments):\n' +
        '  npm install @modelcontextprotocol/sdk\n' +
        'or without installing: npx -y -p partner-payments -p @modelcontextprotocol/sdk partner-payments mcp\n',
    );
    return 3;
  }
  return room.runMcp(args, io);
}
