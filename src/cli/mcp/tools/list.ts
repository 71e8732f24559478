// The tools of `partner-payments mcp` by name, in the one order they are shown in (api.md 21), and
// whether each writes. Every place that names the tools reads this list: tools/list (../server.ts
// puts the definitions of reads.ts and writes.ts in this order), the write tools of `mcp --help`
// (../args.ts), and the tests that hold docs/agents.md and the packed tarball to it. It imports
// nothing, so that the usage text, printed without the optional peer, can read it too.

/** The tools in the order tools/list shows them; a tool that writes is refused unless --allow-writes. */
export const TOOLS = [
  { name: 'list_locations', write: false },
  { name: 'get_location', write: false },
  { name: 'get_order', write: false },
  { name: 'find_orders', write: false },
  { name: 'get_payment', write: false },
  { name: 'create_order', write: true },
  { name: 'charge', write: true },
  { name: 'await_payment_result', write: false },
  { name: 'void_payment', write: true },
  { name: 'refund_payment', write: true },
  { name: 'recover', write: true },
] as const;

/** The name of one tool of {@link TOOLS}. */
export type ToolName = (typeof TOOLS)[number]['name'];

/** Whether the tool changes payments (so it is refused unless the server runs with --allow-writes). */
export function writes(name: ToolName): boolean {
  return TOOLS.some((t) => t.name === name && t.write);
}
