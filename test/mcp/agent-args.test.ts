// The flags of api.md 24 on `partner-payments mcp` (in process, no server started): their values and
// usage errors, the `--help` text that names each, and docs/agents.md's flags table holding every
// flag the usage text names.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_USAGE, parseMcpArgs } from '../../src/cli/mcp/args.js';
import { UsageError } from '../../src/cli/shared/args.js';

const ENV = {
  PAYMENTS_CLIENT_ID: 'id',
  PAYMENTS_CLIENT_SECRET: 'secret-value',
  PAYMENTS_BASE_URL: 'http://127.0.0.1:1',
  HOME: '/home/test',
};
const parse = (argv: string[]) => parseMcpArgs(argv, ENV);
const HOUR = 3_600_000;

describe('the flags of agents that cannot overspend', () => {
  it('default: no budget, no confirmation, a 15 minute duplicate window, no audit log', () => {
    expect(parse([])).toMatchObject({
      budgetCents: undefined,
      refundBudgetCents: undefined,
      budgetWindowMs: 24 * HOUR,
      budgetWindow: '24h',
      confirmAboveCents: undefined,
      duplicateWindowMs: 15 * 60_000,
      duplicateWindow: '15m',
      auditLog: undefined,
    });
  });

  it('reads each flag', () => {
    expect(
      parse([
        '--budget-cents',
        '50000',
        '--budget-window',
        '7d',
        '--refund-budget-cents',
        '1000',
        '--confirm-above-cents',
        '5000',
        '--duplicate-window',
        '2h',
        '--audit-log',
        '/tmp/audit.jsonl',
      ]),
    ).toMatchObject({
      budgetCents: 50_000,
      refundBudgetCents: 1_000,
      budgetWindowMs: 7 * 24 * HOUR,
      confirmAboveCents: 5_000,
      duplicateWindowMs: 2 * HOUR,
      auditLog: '/tmp/audit.jsonl',
    });
    expect(parse(['--budget-cents', '1', '--budget-window', '30d'])).toMatchObject({
      budgetWindowMs: 30 * 24 * HOUR,
    });
    expect(parse(['--duplicate-window', '0'])).toMatchObject({ duplicateWindowMs: 0 });
    expect(parse(['--duplicate-window', '30s'])).toMatchObject({ duplicateWindowMs: 30_000 });
  });

  it.each([
    [['--budget-cents', '0'], '--budget-cents must be a whole number'],
    [['--budget-cents', '10.5'], '--budget-cents must be a whole number'],
    [['--budget-cents', '10', '--budget-window', '1w'], '--budget-window must be 24h, 7d or 30d'],
    [['--budget-window', '7d'], '--budget-window needs --budget-cents'],
    [['--duplicate-window', '15'], '--duplicate-window must be a duration'],
    [['--duplicate-window', '31d'], 'at most 30d'],
    [['--confirm-above-cents=-1'], '--confirm-above-cents must be a whole number'],
    [['--audit-log', ' '], '--audit-log must be a file'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parse(argv)).toThrow(UsageError);
    expect(() => parse(argv)).toThrow(message);
  });

  it('--help names every flag, and docs/agents.md has a row for each flag it names', () => {
    const flags = [...new Set([...MCP_USAGE.matchAll(/(--[a-z-]+)/g)].map(([, f]) => f as string))];
    for (const flag of [
      '--budget-cents',
      '--budget-window',
      '--refund-budget-cents',
      '--confirm-above-cents',
      '--duplicate-window',
      '--audit-log',
    ]) {
      expect(flags).toContain(flag);
    }
    const doc = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');
    const rows = new Set([...doc.matchAll(/^\| `(--[a-z-]+)/gm)].map(([, f]) => f));
    const connection = ['--client-id', '--client-secret', '--base-url', '--auth-url', '--help'];
    expect(flags.filter((f) => !rows.has(f) && !connection.includes(f))).toEqual([]);
  });
});
